import Testing
@_spi(StorageEngine) @testable import RecordStoreCore

/// Change tags are eight lowercase hexadecimal digits, never the tag they replace, and spread
/// (two generators, seeded by the system, do not repeat each other).
@Suite("Change tags")
struct ChangeTagGeneratorTests {
    @Test("Digits are the number's, zero-padded")
    func digits() {
        #expect(ChangeTagGenerator.hexadecimal(0) == "00000000")
        #expect(ChangeTagGenerator.hexadecimal(0xDEAD_BEEF) == "deadbeef")
        #expect(ChangeTagGenerator.hexadecimal(0x0000_0A0F) == "00000a0f")
        #expect(ChangeTagGenerator.hexadecimal(.max) == "ffffffff")
    }

    @Test("Each tag differs from the one it replaces; tags hardly repeat")
    func tags() {
        var generator = ChangeTagGenerator()
        var previous: String?
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let tag = generator.next(different: previous)
            #expect(tag != previous)
            #expect(tag.utf8.count == 8 && tag.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "\(tag)")
            seen.insert(tag)
            previous = tag
        }
        // 10,000 draws of 32 bits: a repeat is possible, more than a few is not.
        #expect(seen.count >= 9_990)
        var other = ChangeTagGenerator()
        let firstOfOther = (0..<100).map { _ in other.next(different: nil) }
        #expect(Set(firstOfOther).intersection(seen).count <= 2)
    }
}

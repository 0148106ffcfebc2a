@testable import RecordStoreCore
import Testing

/// Short GUIDs name shares on command lines (`query shares accept GUID`), so none may begin with
/// `-`, which an argument parser reads as an option.
@Suite struct ShortGUIDTests {
    @Test("A new short GUID is 22 characters of base64url and begins with a letter or a digit")
    func shortGUIDsNeverBeginWithAnOptionDash() {
        // One GUID in 32 would begin with `-` or `_` if the first byte were drawn over its whole
        // range: among 4,000, at least one would with a probability of 1 - (31/32)^4000.
        let guids = (0..<4_000).map { _ in ShareRecords.newShortGUID() }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(guids.allSatisfy { $0.count == 22 && $0.allSatisfy(alphabet.contains) })
        #expect(guids.allSatisfy { $0.first.map { $0.isLetter || $0.isNumber } == true })
        #expect(Set(guids.map(\.first)).count > 32)
        #expect(Set(guids).count == guids.count)
    }
}

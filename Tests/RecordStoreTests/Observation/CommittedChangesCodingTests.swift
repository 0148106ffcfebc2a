import Testing
@_spi(StorageEngine) @testable import RecordStoreCore

/// How a commit travels to other handles and clients (SQLite's change log, PostgreSQL's
/// notifications): listed record by record while small, by its record types when large.
@Suite("Committed changes coding")
struct CommittedChangesCodingTests {
    static func commit(_ count: Int) -> CommittedChanges {
        CommittedChanges(sequence: 7, entries: (0..<count).map { index in
            .init(kind: .created, recordID: RecordID(recordName: "city-\(index)"), recordType: "City")
        })
    }

    @Test func aSmallCommitIsListedAndALargeOneSummarized() throws {
        let small = Self.commit(3)
        #expect(try CommittedChangesCoding.decode(CommittedChangesCoding.encode(small, listingAtMost: 8_000)) == small)
        let large = Self.commit(1_000)
        let decoded = try CommittedChangesCoding.decode(CommittedChangesCoding.encode(large, listingAtMost: 8_000))
        #expect(decoded.entries.isEmpty)
        #expect(decoded.unlisted == [CommittedChanges.Scope(zone: .default, recordType: "City")])
        #expect(decoded.touches(recordType: "City", zone: .default))
    }
}

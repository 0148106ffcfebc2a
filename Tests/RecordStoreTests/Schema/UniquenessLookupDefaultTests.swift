import Foundation
import Testing
@_spi(StorageEngine) import RecordStoreCore

/// An engine written before uniqueness constraints (its write transaction has no
/// `records(matching: UniquenessLookup)`) still compiles, and the default it gets refuses the
/// lookup by name instead of answering "no conflicts".
@Suite("The default uniqueness lookup of an older engine")
struct UniquenessLookupDefaultTests {
    /// A transaction that implements every requirement except the uniqueness lookup.
    struct OlderTransaction: RecordWriteTransaction {
        func readCatalog() -> SchemaCatalog { SchemaCatalog() }
        func storedVersions(of ids: [RecordID]) -> [RecordID: StoredVersion] { [:] }
        func storedRecords(_ ids: [RecordID]) -> [RecordID: Record] { [:] }
        func records(matching lookup: ReferenceLookup) -> [Record] { [] }
        func existingZones(among zones: Set<ZoneID>) -> Set<ZoneID> { zones }
        func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) {}
        func nextChangePosition() -> Int64 { 1 }
        func apply(_ plan: WritePlan, catalog: SchemaCatalog) {}
        func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) {}
        func logCommit(_ changes: CommittedChanges) -> Int64 { 1 }
    }

    @Test func theDefaultRefusesNamingTheTypeAndTheConstraint() async throws {
        var transaction = OlderTransaction()
        let lookup = UniquenessLookup(recordType: "Member", zone: .default, fields: ["first", "last"], keys: [["Ada", "Lovelace"]])
        do {
            let found = try await transaction.records(matching: lookup)
            Issue.record("the default answered \(found.count) records instead of refusing")
        } catch let error as RecordStoreError {
            guard case .storage(let message) = error else {
                Issue.record("expected a storage error, got \(error)")
                return
            }
            #expect(message.contains("uniqueness constraint on first, last of record type 'Member'"))
            #expect(message.contains("records(matching: UniquenessLookup)"))
        }
    }
}

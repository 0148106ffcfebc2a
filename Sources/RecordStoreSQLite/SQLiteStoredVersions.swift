import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Reads the stored versions of records (their type, change tag, creation date and row) a few
/// hundred at a time: the registry for the records of each zone, then each record type's table
/// for the records it holds. A save of a 5,000-record batch reads them in about 25 statements
/// rather than 5,000, and an import of new records finds none of them in the registry's index.
/// The names are read in code-point order (the indexes' order), so that each statement reads
/// neighbouring index pages, whatever order the save gives its records in.
///
/// ```swift
/// let versions = try SQLiteStoredVersions.read([RecordID(recordName: "2988507")], db)
/// versions[RecordID(recordName: "2988507")]?.changeTag   // "1f3a9c2e", or nil when not stored
/// ```
enum SQLiteStoredVersions {
    /// The most record names bound in one statement (well below SQLite's 32,766 parameters).
    static let chunkSize = SQLExecutor.lookupChunk

    private static func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// The stored versions of these records; a record that is not stored has none.
    static func read(_ ids: [RecordID], _ db: Database) throws -> [RecordID: StoredVersion] {
        guard !ids.isEmpty else { return [:] }
        var versions: [RecordID: StoredVersion] = [:]
        // A batch's records are mostly stored (an update, a delete): room for all of them at once
        // rather than a dictionary grown (and rehashed) 17 times for 100,000.
        versions.reserveCapacity(ids.count)
        for (zone, names) in Dictionary(grouping: ids, by: \.zoneID).mapValues({ $0.map(\.recordName).sorted() }) {
            let key = TableLayout.zoneKey(zone)
            var namesByType: [String: [String]] = [:]
            for chunk in chunks(names) {
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: """
                        SELECT recordName, recordType FROM \(quote(TableLayout.registryTable))
                        WHERE zone = ? AND recordName IN (\(placeholders(chunk.count)))
                        """),
                    arguments: StatementArguments([key] + chunk))
                while let row = try rows.next() {
                    let name: String = row[0]
                    let recordType: String = row[1]
                    namesByType[recordType, default: []].append(name)
                }
            }
            for (recordType, stored) in namesByType {
                for chunk in chunks(stored) {
                    let rows = try Row.fetchCursor(
                        db.cachedStatement(sql: """
                            SELECT \(quote(TableLayout.recordNameColumn)), rowid, \(quote(TableLayout.changeTagColumn)), \(quote(TableLayout.creationDateColumn)),
                                   \(quote(TableLayout.creatorColumn))
                            FROM \(quote(TableLayout.recordTable(recordType)))
                            WHERE \(quote(TableLayout.zoneColumn)) = ? AND \(quote(TableLayout.recordNameColumn)) IN (\(placeholders(chunk.count)))
                            """),
                        arguments: StatementArguments([key] + chunk))
                    while let row = try rows.next() {
                        let name: String = row[0]
                        let creation: Double? = row[3]
                        versions[RecordID(recordName: name, zoneID: zone)] = StoredVersion(
                            recordType: recordType, changeTag: row[2], creationDate: creation.map(Date.init(timeIntervalSinceReferenceDate:)),
                            creatorUserRecordName: row[4], rowReference: row[1])
                    }
                }
            }
        }
        return versions
    }

    /// The names in chunks of at most ``chunkSize`` (a name given twice is read once: `IN`
    /// matches each row once).
    private static func chunks(_ names: [String]) -> [ArraySlice<String>] {
        stride(from: 0, to: names.count, by: chunkSize).map { names[$0..<min($0 + chunkSize, names.count)] }
    }

    /// `?, ?, ?` for `count` values.
    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

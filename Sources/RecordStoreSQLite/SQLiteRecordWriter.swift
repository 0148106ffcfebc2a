import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// Writes records into their type tables (string fields in NFC, with the client's spelling
/// when it differs, ``StoredSpelling``, and their ``DerivedColumn``s) and
/// keeps the list, full-text and R*Tree tables in step.
struct SQLiteRecordWriter {
    let db: Database
    let catalog: SchemaCatalog
    /// The INSERT and UPDATE statements of each record type, built once per writer.
    private let statementTexts = StatementTexts()

    /// SQL texts built once per record type and reused for every record of a batch.
    private final class StatementTexts {
        var insert: [String: String] = [:]
        var update: [String: String] = [:]
    }

    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// The stored version of a record (its table row as the row reference), or nil.
    static func storedVersion(of id: RecordID, _ db: Database) throws -> StoredVersion? {
        guard let recordType = try String.fetchOne(
            db.cachedStatement(sql: "SELECT recordType FROM \(SQLiteDialect.quote(TableLayout.registryTable)) WHERE zone = ? AND recordName = ?"),
            arguments: [TableLayout.zoneKey(id.zoneID), id.recordName]) else { return nil }
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT rowid, \(SQLiteDialect.quote(TableLayout.changeTagColumn)), \(SQLiteDialect.quote(TableLayout.creationDateColumn))
                FROM \(SQLiteDialect.quote(TableLayout.recordTable(recordType))) WHERE \(SQLiteDialect.quote(TableLayout.zoneColumn)) = ? AND \(SQLiteDialect.quote(TableLayout.recordNameColumn)) = ?
                """,
            arguments: [TableLayout.zoneKey(id.zoneID), id.recordName]) else { return nil }
        let creation: Double? = row[2]
        return StoredVersion(
            recordType: recordType, changeTag: row[1], creationDate: creation.map(Date.init(timeIntervalSinceReferenceDate:)),
            rowReference: row[0])
    }

    /// Writes what a save decided: each record inserted, updated in place, or (when its type
    /// changed) removed and inserted; then the deletions.
    func apply(_ plan: WritePlan) throws {
        for write in plan.writes {
            if let stored = write.replacing, let rowID = stored.rowReference, !write.changesRecordType {
                try self.write(write.record, replacing: rowID, position: plan.changePosition)
            } else {
                if let stored = write.replacing, let rowID = stored.rowReference {
                    try delete(write.record.recordID, version: stored, rowID: rowID)
                }
                try self.write(write.record, replacing: nil, position: plan.changePosition)
            }
        }
        for id in plan.deletions {
            if let stored = try Self.storedVersion(of: id, db), let rowID = stored.rowReference {
                try delete(id, version: stored, rowID: rowID)
            }
        }
    }

    /// Inserts a new record (registered at the save's change position), or replaces the stored
    /// one at `rowID` (of the same type; its position is updated with the history).
    private func write(_ record: Record, replacing existingRowID: Int64?, position: Int64) throws {
        guard let schema = catalog.recordTypes[record.recordType] else {
            throw RecordStoreError.unknownRecordType(record.recordType)
        }
        var columns = [TableLayout.zoneColumn, TableLayout.recordNameColumn, TableLayout.creationDateColumn,
                       TableLayout.modificationDateColumn, TableLayout.changeTagColumn]
        var values: [DatabaseValue] = [
            TableLayout.zoneKey(record.recordID.zoneID).databaseValue, record.recordID.recordName.databaseValue,
            (record.creationDate?.timeIntervalSinceReferenceDate).databaseValue,
            (record.modificationDate?.timeIntervalSinceReferenceDate).databaseValue,
            record.recordChangeTag.databaseValue,
        ]
        for field in schema.fields {
            let value = record.fields[field.name] ?? .null
            columns.append(field.name)
            if case .list = value {
                // The whole list as typed JSON, so reading a record needs no side-table query;
                // the side table holds the members again, indexed, for queries.
                values.append(value.jsonText().databaseValue)
            } else {
                values.append(SQLiteValueConversion.databaseValue(StoredValueEncoding.encode(value)))
            }
            if StoredSpelling.hasColumn(field) {
                columns.append(TableLayout.spellingColumn(field.name))
                values.append(SQLiteValueConversion.databaseValue(StoredSpelling.value(of: value)))
            }
            for derived in DerivedColumn.columns(for: field) {
                columns.append(TableLayout.derivedColumn(field.name, derived))
                values.append(SQLiteValueConversion.databaseValue(derived.value(of: value)))
            }
            if field.type == .location {
                var latitude: Double?
                var longitude: Double?
                if case .location(let location) = value {
                    latitude = location.latitude
                    longitude = location.longitude
                }
                columns += [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)]
                values += [latitude.databaseValue, longitude.databaseValue]
            }
        }
        let table = quote(TableLayout.recordTable(record.recordType))
        let rowID: Int64
        if let existing = existingRowID {
            let sql = statementTexts.update[record.recordType] ?? {
                let assignments = columns.map { "\(quote($0)) = ?" }.joined(separator: ", ")
                let text = "UPDATE \(table) SET \(assignments) WHERE rowid = ?"
                statementTexts.update[record.recordType] = text
                return text
            }()
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values + [existing.databaseValue]))
            try deleteSideRows(recordType: record.recordType, rowID: existing, schema: schema)
            rowID = existing
        } else {
            let sql = statementTexts.insert[record.recordType] ?? {
                let names = columns.map(quote).joined(separator: ", ")
                let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                let text = "INSERT INTO \(table) (\(names)) VALUES (\(placeholders))"
                statementTexts.insert[record.recordType] = text
                return text
            }()
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
            rowID = db.lastInsertedRowID
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(quote(TableLayout.registryTable)) (zone, recordName, recordType, position) VALUES (?, ?, ?, ?)")
                .execute(arguments: [TableLayout.zoneKey(record.recordID.zoneID), record.recordID.recordName, record.recordType, position])
        }
        try writeSideRows(record, rowID: rowID, schema: schema)
    }

    /// Writes list members, the full-text document and R*Tree entries.
    private func writeSideRows(_ record: Record, rowID: Int64, schema: RecordTypeSchema) throws {
        var fullText: [String] = []
        for field in schema.fields {
            guard let value = record.fields[field.name] else { continue }
            switch value {
            case .list(let members) where !members.isEmpty && field.isQueryable:
                try SQLiteListTable(recordType: record.recordType).insert(members, of: field.name, record: rowID, db)
            case .location(let location) where location.isValid && field.isIndexed:
                try db.cachedStatement(
                    sql: "INSERT INTO \(quote(SQLiteLayout.locationIndexTable(record.recordType, field: field.name))) VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [rowID, location.latitude, location.latitude, location.longitude, location.longitude])
            case .string(let text) where field.isSearchable:
                fullText.append(contentsOf: FullTextTokenizer.tokens(text))
            default:
                break
            }
        }
        if !fullText.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO \(quote(SQLiteLayout.fullTextTable(record.recordType))) (rowid, body) VALUES (?, ?)")
                .execute(arguments: [rowID, fullText.joined(separator: " ")])
        }
    }

    /// Deletes list members, the full-text document and R*Tree entries of a row.
    private func deleteSideRows(recordType: String, rowID: Int64, schema: RecordTypeSchema) throws {
        try db.cachedStatement(sql: "DELETE FROM \(quote(TableLayout.listTable(recordType))) WHERE record = ?").execute(arguments: [rowID])
        if !schema.searchableFieldNames.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM \(quote(SQLiteLayout.fullTextTable(recordType))) WHERE rowid = ?").execute(arguments: [rowID])
        }
        for field in schema.fields where field.type == .location && field.isIndexed {
            try db.cachedStatement(sql: "DELETE FROM \(quote(SQLiteLayout.locationIndexTable(recordType, field: field.name))) WHERE id = ?")
                .execute(arguments: [rowID])
        }
    }

    /// Deletes a stored record entirely.
    private func delete(_ id: RecordID, version: StoredVersion, rowID: Int64) throws {
        guard let schema = catalog.recordTypes[version.recordType] else { return }
        try deleteSideRows(recordType: version.recordType, rowID: rowID, schema: schema)
        try db.cachedStatement(sql: "DELETE FROM \(quote(TableLayout.recordTable(version.recordType))) WHERE rowid = ?").execute(arguments: [rowID])
        try db.cachedStatement(sql: "DELETE FROM \(quote(TableLayout.registryTable)) WHERE zone = ? AND recordName = ?")
            .execute(arguments: [TableLayout.zoneKey(id.zoneID), id.recordName])
    }

    /// Deletes every record of a zone.
    func deleteZone(_ zone: ZoneID) throws {
        let key = TableLayout.zoneKey(zone)
        for schema in catalog.sorted {
            let table = quote(TableLayout.recordTable(schema.name))
            let rows = "SELECT rowid FROM \(table) WHERE \(quote(TableLayout.zoneColumn)) = ?"
            try db.execute(sql: "DELETE FROM \(quote(TableLayout.listTable(schema.name))) WHERE record IN (\(rows))", arguments: [key])
            if !schema.searchableFieldNames.isEmpty {
                try db.execute(sql: "DELETE FROM \(quote(SQLiteLayout.fullTextTable(schema.name))) WHERE rowid IN (\(rows))", arguments: [key])
            }
            for field in schema.fields where field.type == .location && field.isIndexed {
                try db.execute(
                    sql: "DELETE FROM \(quote(SQLiteLayout.locationIndexTable(schema.name, field: field.name))) WHERE id IN (\(rows))",
                    arguments: [key])
            }
            try db.execute(sql: "DELETE FROM \(table) WHERE \(quote(TableLayout.zoneColumn)) = ?", arguments: [key])
        }
        try db.execute(sql: "DELETE FROM \(quote(TableLayout.registryTable)) WHERE zone = ?", arguments: [key])
        try db.execute(sql: "DELETE FROM \(quote(TableLayout.zonesTable)) WHERE name = ?", arguments: [zone.zoneName])
    }

    /// Rebuilds the full-text documents of a record type (after its searchable fields changed).
    func rebuildFullText(_ schema: RecordTypeSchema) throws {
        let fts = quote(SQLiteLayout.fullTextTable(schema.name))
        try db.execute(sql: "DELETE FROM \(fts)")
        let fields = schema.searchableFieldNames
        guard !fields.isEmpty else { return }
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(fields.map(quote).joined(separator: ", ")) FROM \(quote(TableLayout.recordTable(schema.name)))")
        for row in rows {
            var tokens: [String] = []
            for index in fields.indices {
                if let text: String = row[index + 1] { tokens += FullTextTokenizer.tokens(text) }
            }
            if !tokens.isEmpty {
                try db.execute(sql: "INSERT INTO \(fts) (rowid, body) VALUES (?, ?)", arguments: [row[0] as Int64, tokens.joined(separator: " ")])
            }
        }
    }
}

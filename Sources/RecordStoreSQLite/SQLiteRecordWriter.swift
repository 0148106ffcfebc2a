import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Writes records into their type tables (string fields in NFC, with the client's spelling
/// when it differs, ``StoredSpelling``, and their ``DerivedColumn``s) and
/// keeps the list and full-text tables in step (a location's band index is on the row itself,
/// ``SQLiteLocationGrid``).
struct SQLiteRecordWriter {
    let db: Database
    let catalog: SchemaCatalog
    /// Each record type's layout and statements, prepared once per writer (one save).
    private let prepared = PreparedTypes()

    /// The layouts and statements of the record types this writer wrote so far.
    private final class PreparedTypes {
        var byType: [String: PreparedType] = [:]
        /// The partial updates of a batch update, by record type and the fields it changes.
        var partialUpdates: [PartialUpdateKey: PartialUpdate] = [:]
        var registryInsert: Statement?
    }

    private struct PartialUpdateKey: Hashable {
        let recordType: String
        let changedFields: Set<String>
    }

    /// What updating some fields of a record type's rows needs, worked out once per writer for
    /// all the records of a batch update: the fields' positions, the statement and its
    /// parameter count, which of the fields keep list members, and whether one is searchable.
    private struct PartialUpdate {
        let positions: [Int]
        let statement: Statement
        let parameterCount: Int
        let listPositions: [Int]
        let searchableChanged: Bool
    }

    /// A record type's layout and the statements that write its rows.
    private struct PreparedType {
        let schema: RecordTypeSchema
        let layout: SQLiteRowLayout
        let insert: Statement
        let fullTextInsert: Statement?
        /// The full-text document's replacement and deletion (a partial update's), when the type
        /// has searchable fields.
        let fullTextUpdate: Statement?
        let fullTextDelete: Statement?
    }

    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// Writes what a save decided: each record inserted, updated in place, or (when its type
    /// changed) removed and inserted; then the deletions.
    ///
    /// The partial updates (a batch update's, ``WritePlan/Write/changedFields``) go last, in the
    /// order of their rows: each touches its own row, list members and full-text document (SQLite
    /// keeps no unique index but the record's own), so their order changes nothing but the pages
    /// they visit, and a batch read in another order (`population < 4812` reads by population)
    /// would visit its table's and full-text index's pages at random.
    func apply(_ plan: WritePlan) throws {
        var partialUpdates: [(rowID: Int64, index: Int, changedFields: Set<String>)] = []
        for (index, write) in plan.writes.enumerated() {
            if let stored = write.replacing, let rowID = stored.rowReference, !write.changesRecordType {
                if let changedFields = write.changedFields {
                    partialUpdates.append((rowID, index, changedFields))
                } else {
                    try self.write(write.record, replacing: rowID, position: plan.changePosition)
                }
            } else {
                if let stored = write.replacing, let rowID = stored.rowReference {
                    try delete(write.record.recordID, version: stored, rowID: rowID)
                }
                try self.write(write.record, replacing: nil, position: plan.changePosition)
            }
        }
        partialUpdates.sort { $0.rowID < $1.rowID }
        for update in partialUpdates {
            try self.update(plan.writes[update.index].record, changing: update.changedFields, rowID: update.rowID)
        }
        // What is stored under each identifier once the writes are done (an identifier named
        // twice is deleted once).
        let stored = try SQLiteStoredVersions.read(plan.deletions, db)
        var deleted = Set<RecordID>()
        for id in plan.deletions where deleted.insert(id).inserted {
            if let version = stored[id], let rowID = version.rowReference {
                try delete(id, version: version, rowID: rowID)
            }
        }
    }

    /// The layout and statements of a record type, prepared on first use.
    private func preparedType(_ recordType: String) throws -> PreparedType {
        if let known = prepared.byType[recordType] { return known }
        guard let schema = catalog.recordTypes[recordType] else {
            throw RecordStoreError.unknownRecordType(recordType)
        }
        let layout = SQLiteRowLayout(schema)
        let fullText = quote(SQLiteLayout.fullTextTable(recordType))
        let searchable = layout.fullTextInsertSQL != nil
        let type = PreparedType(
            schema: schema, layout: layout, insert: try db.cachedStatement(sql: layout.insertSQL),
            fullTextInsert: try layout.fullTextInsertSQL.map { try db.cachedStatement(sql: $0) },
            fullTextUpdate: searchable ? try db.cachedStatement(sql: "UPDATE \(fullText) SET body = ? WHERE rowid = ?") : nil,
            fullTextDelete: searchable ? try db.cachedStatement(sql: "DELETE FROM \(fullText) WHERE rowid = ?") : nil)
        prepared.byType[recordType] = type
        return type
    }

    /// Inserts a new record (registered at the save's change position), or replaces the stored
    /// one at `rowID` (of the same type; its position is updated with the history). Values are
    /// bound straight into the prepared statements (``SQLiteStatementBinder``).
    private func write(_ record: Record, replacing existingRowID: Int64?, position: Int64) throws {
        let type = try preparedType(record.recordType)
        let rowID: Int64
        if let existing = existingRowID {
            var row = SQLiteStatementBinder(try db.cachedStatement(sql: type.layout.updateSQL), parameterCount: type.layout.columns.count + 1)
            try type.layout.bindRowValues(of: record, to: &row)
            try row.bind(existing)
            try row.execute()
            try deleteSideRows(recordType: record.recordType, rowID: existing, fullText: !type.schema.searchableFieldNames.isEmpty)
            rowID = existing
        } else {
            var row = SQLiteStatementBinder(type.insert, parameterCount: type.layout.columns.count)
            try type.layout.bindRowValues(of: record, to: &row)
            try row.execute()
            rowID = db.lastInsertedRowID
            let registry = try prepared.registryInsert ?? db.cachedStatement(
                sql: "INSERT OR REPLACE INTO \(quote(TableLayout.registryTable)) (zone, recordName, recordType, position) VALUES (?, ?, ?, ?)")
            prepared.registryInsert = registry
            var entry = SQLiteStatementBinder(registry, parameterCount: 4)
            try entry.bind(TableLayout.zoneKey(record.recordID.zoneID))
            try entry.bind(record.recordID.recordName)
            try entry.bind(record.recordType)
            try entry.bind(position)
            try entry.execute()
        }
        try writeSideRows(record, rowID: rowID, type, listPositions: type.layout.listFieldPositions, fullText: true)
    }

    /// Updates the stored row of a record whose other fields are the stored ones (a batch
    /// update's, ``WritePlan/Write/changedFields``): its metadata and the columns of the fields
    /// that change, their list members, and the full-text document only when a searchable field
    /// changes. The indexes of the other columns stay as they are.
    private func update(_ record: Record, changing changedFields: Set<String>, rowID: Int64) throws {
        let type = try preparedType(record.recordType)
        let update = try partialUpdate(of: type, changing: changedFields)
        var row = SQLiteStatementBinder(update.statement, parameterCount: update.parameterCount)
        try type.layout.bindPartialUpdate(of: record, fields: update.positions, to: &row)
        try row.bind(rowID)
        try row.execute()
        if !update.listPositions.isEmpty {
            try deleteSideRows(
                recordType: record.recordType, rowID: rowID, listFields: update.listPositions.map { type.layout.fields[$0].schema.name }, fullText: false)
            try writeSideRows(record, rowID: rowID, type, listPositions: update.listPositions, fullText: false)
        }
        if update.searchableChanged { try replaceFullText(of: record, rowID: rowID, type) }
    }

    /// Replaces a row's full-text document by the record's: one `UPDATE` of the FTS5 table (its
    /// delete and insert in one lookup), an insert when the row had none, a delete when the record
    /// has none now.
    private func replaceFullText(of record: Record, rowID: Int64, _ type: PreparedType) throws {
        guard let update = type.fullTextUpdate, let delete = type.fullTextDelete else { return }
        guard let document = type.layout.fullTextDocument(of: record) else {
            var deletion = SQLiteStatementBinder(delete, parameterCount: 1)
            try deletion.bind(rowID)
            try deletion.execute()
            return
        }
        var replacement = SQLiteStatementBinder(update, parameterCount: 2)
        try replacement.bind(document)
        try replacement.bind(rowID)
        try replacement.execute()
        guard db.changesCount == 0, let insert = type.fullTextInsert else { return }
        var entry = SQLiteStatementBinder(insert, parameterCount: 2)
        try entry.bind(rowID)
        try entry.bind(document)
        try entry.execute()
    }

    /// The partial update of `type`'s rows that changes `changedFields`, worked out on first use.
    private func partialUpdate(of type: PreparedType, changing changedFields: Set<String>) throws -> PartialUpdate {
        let key = PartialUpdateKey(recordType: type.schema.name, changedFields: changedFields)
        if let known = prepared.partialUpdates[key] { return known }
        let layout = type.layout
        let positions = layout.fields.indices.filter { changedFields.contains(layout.fields[$0].schema.name) }
        let update = PartialUpdate(
            positions: positions, statement: try db.cachedStatement(sql: layout.partialUpdateSQL(fields: positions)),
            parameterCount: 4 + positions.reduce(0) { $0 + layout.columnCount(of: $1) },
            listPositions: positions.filter { layout.fields[$0].writesMembers },
            searchableChanged: positions.contains { layout.fields[$0].isSearchable })
        prepared.partialUpdates[key] = update
        return update
    }

    /// Writes the list members of the list fields at these positions, and the full-text
    /// document when asked.
    private func writeSideRows(_ record: Record, rowID: Int64, _ type: PreparedType, listPositions: [Int], fullText: Bool) throws {
        for position in listPositions {
            let field = type.layout.fields[position]
            guard case .list(let members)? = record.fields[field.schema.name], !members.isEmpty else { continue }
            try type.layout.listTable.insert(members, of: field.schema.name, record: rowID, db)
        }
        if fullText, let insert = type.fullTextInsert, let document = type.layout.fullTextDocument(of: record) {
            var entry = SQLiteStatementBinder(insert, parameterCount: 2)
            try entry.bind(rowID)
            try entry.bind(document)
            try entry.execute()
        }
    }

    /// Deletes a row's list members (of every list field, or of `listFields` alone) and, when
    /// `fullText`, its full-text document.
    private func deleteSideRows(recordType: String, rowID: Int64, listFields: [String]? = nil, fullText: Bool) throws {
        let listTable = quote(TableLayout.listTable(recordType))
        if let listFields {
            for field in listFields {
                try db.cachedStatement(sql: "DELETE FROM \(listTable) WHERE record = ? AND field = ?").execute(arguments: [rowID, field])
            }
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(listTable) WHERE record = ?").execute(arguments: [rowID])
        }
        if fullText {
            try db.cachedStatement(sql: "DELETE FROM \(quote(SQLiteLayout.fullTextTable(recordType))) WHERE rowid = ?").execute(arguments: [rowID])
        }
    }

    /// Deletes a stored record entirely.
    private func delete(_ id: RecordID, version: StoredVersion, rowID: Int64) throws {
        guard let schema = catalog.recordTypes[version.recordType] else { return }
        try deleteSideRows(recordType: version.recordType, rowID: rowID, fullText: !schema.searchableFieldNames.isEmpty)
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
            var document = SQLiteFullTextDocument()
            for index in fields.indices {
                if let text: String = row[index + 1] { document.append(text) }
            }
            if let text = document.text {
                try db.execute(sql: "INSERT INTO \(fts) (rowid, body) VALUES (?, ?)", arguments: [row[0] as Int64, text])
            }
        }
    }
}

// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Writes records into their PostgreSQL tables: the typed row with its ``DerivedColumn``s,
/// full-text tokens and location point columns, the registry entry, and the list tables.
///
/// New records are inserted many to a statement (an import's batch is a few round trips);
/// a stored record is updated only while its change tag is still the one the save read
/// (`UPDATE ... WHERE "$recordChangeTag" IS NOT DISTINCT FROM $n`): when another writer got
/// there first, no row matches and the writer throws ``PostgresWriteRace``, so the engine runs
/// the save again and its rules decide on what is stored now. Two writers of one record
/// therefore never lose an update: one of them gets ``RecordStoreError/conflict(_:expected:found:)``.
struct PostgresRecordWriter {
    let connection: PostgresSQLConnection
    let catalog: SchemaCatalog

    func quote(_ name: String) -> String { PostgresDialect.quote(name) }

    /// PostgreSQL takes at most 65,535 bound values in a statement.
    static let maximumArguments = 30_000

    /// Zone names and record names as two bound `text[]` literals.
    static func identifierArrays(_ ids: some Collection<RecordID>) -> [SQLValue] {
        [.text(PostgresDialect.arrayLiteral(ids.map { TableLayout.zoneKey($0.zoneID) })), .text(PostgresDialect.arrayLiteral(ids.map(\.recordName)))]
    }

    static func chunks<T>(_ items: [T], size: Int) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }

    // MARK: Writing

    /// Writes what a save decided, a few statements per record type whatever the number of
    /// records: removals of the records whose type changed, updates in place, inserts of the
    /// rest, then the deletions (each grouped by type, many to a statement).
    func apply(_ plan: WritePlan) async throws {
        var inserts: [Record] = []
        var updates: [StoredRow<Record>] = []
        var removals: [StoredRow<RecordID>] = []
        for write in plan.writes {
            if let stored = write.replacing, let rowID = stored.rowReference {
                if write.changesRecordType {
                    removals.append(StoredRow(write.record.recordID, version: stored, rowID: rowID))
                    inserts.append(write.record)
                } else {
                    updates.append(StoredRow(write.record, version: stored, rowID: rowID))
                }
            } else {
                inserts.append(write.record)
            }
        }
        try await delete(removals)
        try await update(updates)
        // Records of one type go in one statement; the order between types does not matter.
        for (recordType, records) in Self.grouped(inserts, by: \.recordType) {
            try await insert(records, recordType: recordType, position: plan.changePosition)
        }
        if !plan.deletions.isEmpty {
            // Read again after the writes: a deletion removes whatever is stored under its name now.
            let stored = try await storedVersions(of: plan.deletions)
            try await delete(plan.deletions.compactMap { id in
                stored[id].flatMap { version in version.rowReference.map { StoredRow(id, version: version, rowID: $0) } }
            })
        }
    }

    /// The columns of a record type's row, with the placeholder each value takes. Every
    /// placeholder names its column's type, so that a row of values has its types wherever it
    /// stands: in an `INSERT`, or in the `VALUES` list an update joins (where a column of nulls
    /// would otherwise be text).
    func columns(_ schema: RecordTypeSchema) -> [(name: String, placeholder: String)] {
        let text = "?::text", real = "?::double precision"
        var columns: [(String, String)] = [
            (TableLayout.zoneColumn, text), (TableLayout.recordNameColumn, text), (TableLayout.creationDateColumn, real),
            (TableLayout.modificationDateColumn, real), (TableLayout.changeTagColumn, text),
            (TableLayout.creatorColumn, text), (TableLayout.lastModifierColumn, text),
        ]
        for field in schema.fields {
            columns.append((field.name, field.type == .bool ? "?::integer::boolean" : "?::" + PostgresLayout.castType(PostgresLayout.columnType(field.type))))
            if StoredSpelling.hasColumn(field) {
                columns.append((TableLayout.spellingColumn(field.name), text))
            }
            for derived in DerivedColumn.columns(for: field) {
                columns.append((TableLayout.derivedColumn(field.name, derived), "?::" + PostgresLayout.castType(PostgresLayout.columnType(derived))))
            }
            if field.type == .location {
                columns.append((TableLayout.latitudeColumn(field.name), real))
                columns.append((TableLayout.longitudeColumn(field.name), real))
            }
        }
        if !schema.searchableFieldNames.isEmpty {
            columns.append((PostgresLayout.fullTextColumn, "?::tsvector"))
        }
        return columns
    }

    /// The longest value, in bytes, PostgreSQL's B-tree indexes take (a third of a page, less
    /// the index entry's own bytes and the zone and record name beside it).
    static let longestIndexedValue = 2_600

    /// Refuses a record name (with its zone name) longer than PostgreSQL can index.
    static func checkIndexable(_ id: RecordID) throws(RecordStoreError) {
        if id.recordName.utf8.count + id.zoneID.zoneName.utf8.count > longestIndexedValue {
            throw .invalidRecordName("\(id.recordName.prefix(40))... (\(id.recordName.utf8.count) bytes; a PostgreSQL store takes record and zone names of at most \(longestIndexedValue) bytes together)")
        }
    }

    /// Refuses a value bound for an indexed column (a queryable or sortable field, its derived
    /// columns, list members) longer than ``longestIndexedValue`` bytes, as the
    /// writer computes it. SQLite has no such limit; the error says so.
    static func checkIndexable(_ stored: SQLValue, field: String, recordType: String, what: String) throws(RecordStoreError) {
        let size: Int = switch stored {
        case .text(let text): text.utf8.count
        case .blob(let data): data.count
        default: 0
        }
        guard size > longestIndexedValue else { return }
        throw .unsupportedValue(
            field: field, recordType: recordType,
            reason: "\(what) takes \(size) bytes in a PostgreSQL index, which holds at most \(longestIndexedValue); store long text in a field that is neither queryable nor sortable")
    }

    /// The values of a record's row, in the order of ``columns(_:)``.
    func values(_ record: Record, schema: RecordTypeSchema) throws(RecordStoreError) -> [SQLValue] {
        try Self.checkIndexable(record.recordID)
        var values: [SQLValue] = [
            .text(TableLayout.zoneKey(record.recordID.zoneID)), .text(record.recordID.recordName),
            record.creationDate.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null,
            PostgresLayout.storedModificationDate(creation: record.creationDate, modification: record.modificationDate),
            record.recordChangeTag.map(SQLValue.text) ?? .null,
            record.creatorUserRecordName.map(SQLValue.text) ?? .null,
            record.lastModifiedUserRecordName.map(SQLValue.text) ?? .null,
        ]
        var tokens: [String] = []
        for field in schema.fields {
            let value = record.fields[field.name] ?? .null
            if case .list = value {
                values.append(.text(value.jsonText()))
            } else if case .location(let location) = value, location.altitude == nil {
                // Its two number columns hold it (``PostgresLayout/locationReadExpression(field:alias:)``).
                values.append(.text(""))
            } else {
                let stored = StoredValueEncoding.encode(value)
                if field.isIndexed {
                    try Self.checkIndexable(stored, field: field.name, recordType: schema.name, what: "the value")
                }
                values.append(stored)
            }
            if StoredSpelling.hasColumn(field) {
                values.append(StoredSpelling.value(of: value))
            }
            var caseFolded = SQLValue.null
            for derived in DerivedColumn.columns(for: field) {
                let stored = derived.value(of: value)
                try Self.checkIndexable(stored, field: field.name, recordType: schema.name, what: "its \(derived.rawValue) form")
                values.append(PostgresLayout.storedForm(of: stored, derived, caseFolded: caseFolded))
                if derived == .caseFolded { caseFolded = stored }
            }
            if field.type == .location {
                if case .location(let location) = value {
                    values += [.real(location.latitude), .real(location.longitude)]
                } else {
                    values += [.null, .null]
                }
            }
            if field.isSearchable, case .string(let text) = value {
                tokens += FullTextTokenizer.tokens(text)
            }
        }
        if !schema.searchableFieldNames.isEmpty {
            // No words is an empty tsvector, never null: `NOT self CONTAINS 'x'` must hold there.
            values.append(.text(try PostgresFullText.vectorLiteral(tokens, recordType: schema.name)))
        }
        return values
    }

    func schema(of recordType: String) throws -> RecordTypeSchema {
        guard let schema = catalog.recordTypes[recordType] else { throw RecordStoreError.unknownRecordType(recordType) }
        return schema
    }

    /// From how many new records of one type a save copies them (``copy(_:schema:)``) rather than
    /// inserting them: below it, one `INSERT` is fewer round trips than the copies.
    static let fewestRecordsToCopy = 200

    /// Inserts new records of one type: their registry entries (at the save's change position)
    /// and rows, then their list members.
    private func insert(_ records: [Record], recordType: String, position: Int64) async throws {
        guard !records.isEmpty else { return }
        let schema = try schema(of: recordType)
        if records.count >= Self.fewestRecordsToCopy { return try await copy(records, schema: schema, position: position) }
        let columns = columns(schema)
        let perRecord = columns.count + 4
        let batch = max(1, Self.maximumArguments / perRecord)
        let rowTuple = "(" + columns.map(\.placeholder).joined(separator: ", ") + ")"
        let columnList = columns.map { quote($0.name) }.joined(separator: ", ")
        let dialect = PostgresDialect()
        for chunk in Self.chunks(records, size: batch) {
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(chunk.count * perRecord)
            for record in chunk {
                arguments += [.text(TableLayout.zoneKey(record.recordID.zoneID)), .text(record.recordID.recordName), .text(recordType), .integer(position)]
            }
            for record in chunk {
                arguments += try values(record, schema: schema)
            }
            let registry = Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            let rows = Array(repeating: rowTuple, count: chunk.count).joined(separator: ", ")
            let sql = "WITH registered AS (INSERT INTO \(quote(TableLayout.registryTable)) (zone, recordName, recordType, position) VALUES \(registry)) "
                + "INSERT INTO \(quote(TableLayout.recordTable(recordType))) (\(columnList)) VALUES \(rows) "
                + "RETURNING \(quote(PostgresLayout.rowColumn)), \(quote(TableLayout.recordNameColumn))"
            var rowIDs: [String: Int64] = [:]
            try await connection.forEachRow(SQLStatement(sql, arguments, dialect: dialect)) { row in
                if case .integer(let id) = row.value(at: 0), case .text(let name) = row.value(at: 1) { rowIDs[name] = id }
                return true
            }
            var members: [(rowID: Int64, record: Record)] = []
            for record in chunk where schema.fields.contains(where: { $0.type.isList }) {
                guard let rowID = rowIDs[record.recordID.recordName] else {
                    throw RecordStoreError.storage("PostgreSQL returned no row for the new record '\(record.recordID)'")
                }
                members.append((rowID, record))
            }
            try await insertMembers(members, schema: schema)
        }
    }

    /// Writes many new records of one type with `COPY`: their row identities are taken from the
    /// table's identity sequence first (one statement), so that the registry, the rows and the
    /// list members each go in one copy. Twice as fast as multi-row inserts for an import.
    private func copy(_ records: [Record], schema: RecordTypeSchema, position: Int64) async throws {
        let table = TableLayout.recordTable(schema.name)
        var rowIDs: [Int64] = []
        rowIDs.reserveCapacity(records.count)
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT nextval(pg_get_serial_sequence($1, $2)) FROM generate_series(1, $3)",
            arguments: [.text(quote(table)), .text(PostgresLayout.rowColumn), .integer(Int64(records.count))])) { row in
            if case .integer(let id) = row.value(at: 0) { rowIDs.append(id) }
            return true
        }
        guard rowIDs.count == records.count else {
            throw RecordStoreError.storage("PostgreSQL gave \(rowIDs.count) row identities for \(records.count) new records")
        }
        try await connection.copy(
            into: TableLayout.registryTable, columns: ["zone", "recordname", "recordtype", "position"],  // created unquoted, so folded to lower case
            rows: records.map { [.text(TableLayout.zoneKey($0.recordID.zoneID)), .text($0.recordID.recordName), .text(schema.name), .integer(position)] })
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(records.count)
        for (rowID, record) in zip(rowIDs, records) {
            rows.append([.integer(rowID)] + (try values(record, schema: schema)))
        }
        try await connection.copy(into: table, columns: [PostgresLayout.rowColumn] + columns(schema).map(\.name), rows: rows)
        for field in schema.fields where field.type.isList && field.isQueryable {
            var members: [[SQLValue]] = []
            for (rowID, record) in zip(rowIDs, records) {
                guard case .list(let list)? = record.fields[field.name] else { continue }
                for (position, member) in list.enumerated() {
                    members.append([.integer(rowID), .integer(Int64(position))] + (try Self.memberValues(member, field: field.name, recordType: schema.name)))
                }
            }
            try await connection.copy(
                into: PostgresLayout.listTable(schema.name, field: field.name),
                columns: ["record", "position", "value"] + DerivedColumn.memberForms.map { TableLayout.derivedColumn("value", $0) },
                rows: members)
        }
    }
}
#endif

import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// How the rows of one record type are written: the table's columns in the order the insert
/// binds them (the metadata, then per field its value, its spelling column, its derived columns
/// and, for a location, its latitude and longitude), the side tables each field feeds (list
/// members, full text), and the statements' texts. ``SQLiteRecordWriter`` builds one per
/// record type and save, so that each record is only its values, bound in place.
///
/// ```swift
/// let layout = SQLiteRowLayout(schema)
/// var row = SQLiteStatementBinder(try db.cachedStatement(sql: layout.insertSQL), parameterCount: layout.columns.count)
/// try layout.bindRowValues(of: record, to: &row)
/// try row.execute()
/// ```
struct SQLiteRowLayout {
    /// One field and what its value feeds.
    struct Field {
        /// The field as the schema declares it.
        let schema: FieldSchema
        /// Whether it has a spelling column (``StoredSpelling``).
        let hasSpelling: Bool
        /// Its derived columns, in column order (``DerivedColumn/columns(for:)``).
        let derived: [DerivedColumn]
        /// Whether it is a location (its latitude and longitude have columns of their own).
        let isLocation: Bool
        /// Whether its list members go to the list table (a queryable list).
        let writesMembers: Bool
        /// Whether its strings go to the full-text document.
        let isSearchable: Bool
    }

    /// The record type.
    let recordType: String
    /// The fields, in the schema's order.
    let fields: [Field]
    /// The table's written columns, in binding order (unquoted).
    let columns: [String]
    /// Inserts a row: every column of ``columns``.
    let insertSQL: String
    /// Updates a row in place: every column of ``columns``, then the row's `rowid`.
    let updateSQL: String
    /// Inserts a row's full-text document, when the type has searchable fields.
    let fullTextInsertSQL: String?
    /// The positions in ``fields`` of the fields that feed the list table: the only ones a row's
    /// side rows need to look at.
    let listFieldPositions: [Int]
    /// The list table.
    let listTable: SQLiteListTable

    private static func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// The layout of a record type as its schema stands.
    init(_ schema: RecordTypeSchema) {
        recordType = schema.name
        let table = Self.quote(TableLayout.recordTable(schema.name))
        var columns = [TableLayout.zoneColumn] + TableLayout.storedMetadata.map(TableLayout.column)
        var fields: [Field] = []
        for field in schema.fields {
            let layout = Field(
                schema: field, hasSpelling: StoredSpelling.hasColumn(field), derived: DerivedColumn.columns(for: field),
                isLocation: field.type == .location, writesMembers: field.type.isList && field.isQueryable,
                isSearchable: field.isSearchable)
            columns += Self.columns(of: layout)
            fields.append(layout)
        }
        self.fields = fields
        self.columns = columns
        insertSQL = "INSERT INTO \(table) (\(columns.map(Self.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        updateSQL = "UPDATE \(table) SET \(columns.map { "\(Self.quote($0)) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
        fullTextInsertSQL = fields.contains(where: \.isSearchable)
            ? "INSERT INTO \(Self.quote(SQLiteLayout.fullTextTable(schema.name))) (rowid, body) VALUES (?, ?)" : nil
        listFieldPositions = fields.indices.filter { fields[$0].writesMembers }
        listTable = SQLiteListTable(recordType: schema.name)
    }

    /// Binds the values of a record's row, one per column of ``columns``, in their order:
    /// strings in NFC (put in NFC once) with the client's spelling beside them, lists as typed
    /// JSON (so reading a record needs no side-table query; the list table holds queryable
    /// members again, indexed).
    func bindRowValues(of record: Record, to row: inout SQLiteStatementBinder) throws {
        try row.bind(TableLayout.zoneKey(record.recordID.zoneID))
        try row.bind(record.recordID.recordName)
        try row.bind(record.creationDate?.timeIntervalSinceReferenceDate)
        try row.bind(record.modificationDate?.timeIntervalSinceReferenceDate)
        try row.bind(record.recordChangeTag)
        try row.bind(record.creatorUserRecordName)
        try row.bind(record.lastModifiedUserRecordName)
        for field in fields { try bind(field, of: record, to: &row) }
    }

    /// The rows a partial update changes.
    enum PartialUpdateRows: Equatable {
        /// One row, whose `rowid` is bound last; its change tag is bound too.
        case one
        /// Every row whose `rowid` this table's `row` column holds (a batch update's), each
        /// with a change tag of its own (`query_next_change_tag`, ``SQLiteFunctions``).
        case listed(inTable: String)
    }

    /// The statement that updates only the metadata a save changes (modification date, change
    /// tag, last modifier) and the columns of some fields, by field position
    /// (``bindPartialUpdate(of:fields:rows:to:)`` binds it).
    ///
    /// ```swift
    /// layout.partialUpdateSQL(fields: [4])   // UPDATE "City" SET "$modificationDate" = ?, "$recordChangeTag" = ?, … "timezone" = ?, … WHERE rowid = ?
    /// ```
    func partialUpdateSQL(fields positions: [Int], rows: PartialUpdateRows = .one) -> String {
        let changeTag = Self.quote(TableLayout.changeTagColumn)
        var assignments = ["\(Self.quote(TableLayout.modificationDateColumn)) = ?"]
        switch rows {
        case .one: assignments.append("\(changeTag) = ?")
        case .listed: assignments.append("\(changeTag) = query_next_change_tag(\(changeTag))")
        }
        assignments.append("\(Self.quote(TableLayout.lastModifierColumn)) = ?")
        assignments += positions.flatMap { Self.columns(of: fields[$0]) }.map { "\(Self.quote($0)) = ?" }
        let rowCondition = switch rows {
        case .one: "rowid = ?"
        case .listed(let table): "rowid IN (SELECT row FROM \(table))"
        }
        return "UPDATE \(Self.quote(TableLayout.recordTable(recordType))) SET \(assignments.joined(separator: ", ")) WHERE \(rowCondition)"
    }

    /// Binds the values of ``partialUpdateSQL(fields:rows:)``, but for the row identifier.
    func bindPartialUpdate(of record: Record, fields positions: [Int], rows: PartialUpdateRows = .one, to row: inout SQLiteStatementBinder) throws {
        try row.bind(record.modificationDate?.timeIntervalSinceReferenceDate)
        if rows == .one { try row.bind(record.recordChangeTag) }
        try row.bind(record.lastModifiedUserRecordName)
        for position in positions { try bind(fields[position], of: record, to: &row) }
    }

    /// How many columns the field at a position has.
    func columnCount(of position: Int) -> Int { Self.columns(of: fields[position]).count }

    /// A field's columns, in the order ``bind(_:of:to:)`` binds them.
    private static func columns(of field: Field) -> [String] {
        var columns = [field.schema.name]
        if field.hasSpelling { columns.append(TableLayout.spellingColumn(field.schema.name)) }
        columns += field.derived.map { TableLayout.derivedColumn(field.schema.name, $0) }
        if field.isLocation { columns += [TableLayout.latitudeColumn(field.schema.name), TableLayout.longitudeColumn(field.schema.name)] }
        return columns
    }

    /// Binds the values of one field's columns.
    private func bind(_ field: Field, of record: Record, to row: inout SQLiteStatementBinder) throws {
        let value = record.fields[field.schema.name] ?? .null
        if case .list = value {
            try row.bind(value.jsonText())
            if field.hasSpelling { try row.bindNull() }
        } else {
            let stored = StoredValueEncoding.encode(value)
            try row.bind(stored)
            if field.hasSpelling { try row.bind(StoredSpelling.value(of: value, stored: stored)) }
        }
        for derived in field.derived {
            try row.bind(derived.value(of: value))
        }
        if field.isLocation {
            if case .location(let location) = value {
                try row.bind(location.latitude)
                try row.bind(location.longitude)
            } else {
                try row.bindNull()
                try row.bindNull()
            }
        }
    }

    /// The full-text document of a record: the tokens of its searchable strings, in field
    /// order, separated by spaces; nil when it has none.
    func fullTextDocument(of record: Record) -> String? {
        var document = SQLiteFullTextDocument()
        for field in fields where field.isSearchable {
            guard case .string(let text)? = record.fields[field.schema.name] else { continue }
            document.append(text)
        }
        return document.text
    }
}

import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// Reads records of one type back from the rows of their table: the selection a query
/// selects, and the record a selected row holds.
///
/// ```swift
/// let reader = RecordRowReader(schema: schema, zone: .default, dialect: dialect)
/// let sql = "SELECT \(reader.selection) FROM \"City\" AS t WHERE ..."
/// let record = try reader.record(from: row)
/// ```
@_spi(StorageEngine) public struct RecordRowReader: Sendable {
    @_spi(StorageEngine) public let schema: RecordTypeSchema
    @_spi(StorageEngine) public let zone: ZoneID
    @_spi(StorageEngine) public let dialect: any SQLDialect
    /// Where each column of ``selection`` is in the rows read, when they select more (a union
    /// of a hierarchy's branches, ``HierarchyUnion``); nil when they select ``selection`` as it is.
    @_spi(StorageEngine) public let positions: [Int]?

    /// A reader of one record type's rows in one zone; `positions` places the columns of
    /// ``selection`` in rows that select others too.
    @_spi(StorageEngine) public init(schema: RecordTypeSchema, zone: ZoneID, dialect: any SQLDialect, positions: [Int]? = nil) {
        self.schema = schema
        self.zone = zone
        self.dialect = dialect
        self.positions = positions
    }

    /// The columns a query selects, in the order ``record(from:)`` reads them: the row
    /// identifier, the metadata, then every field of the schema (strings as the client spelled
    /// them, ``StoredSpelling``).
    @_spi(StorageEngine) public var selection: String {
        let metadata = TableLayout.storedMetadata
        let fields = schema.fields.map { StoredSpelling.readExpression(field: $0, alias: "t", dialect: dialect) }
        return (["t.\(dialect.rowIdentifier)"] + metadata.map { dialect.metadataExpression($0, alias: "t") } + fields).joined(separator: ", ")
    }

    /// The record a selected row holds.
    @_spi(StorageEngine) public func record(from row: some SQLRow) throws -> Record {
        guard case .text(let recordName) = row.value(at: column(1)) else {
            throw RecordStoreError.storage("a row of '\(schema.name)' has no record name")
        }
        var fields: [String: Value] = [:]
        fields.reserveCapacity(schema.fields.count)
        for (offset, field) in schema.fields.enumerated() {
            let stored = row.value(at: column(Self.firstFieldPosition + offset))
            if case .null = stored { continue }
            if let elementType = field.type.elementType {
                // A list is stored whole as typed JSON (its members also sit in the list table, for queries).
                guard case .text(let json) = stored, case .list(let members)? = try? Value(jsonText: json) else {
                    throw RecordStoreError.storage("record '\(recordName)' of '\(schema.name)' holds no JSON list in its field '\(field.name)'")
                }
                fields[field.name] = .list(members.map { Self.member($0, as: elementType) })
                continue
            }
            let value = StoredValueEncoding.decode(stored, as: field.type)
            if !value.isNull { fields[field.name] = value }
        }
        return Record(
            recordType: schema.name, recordID: RecordID(recordName: recordName, zoneID: zone), fields: fields,
            creationDate: Self.date(row.value(at: column(2))), modificationDate: Self.date(row.value(at: column(3))),
            recordChangeTag: Self.text(row.value(at: column(4))),
            creatorUserRecordName: Self.text(row.value(at: column(5))), lastModifiedUserRecordName: Self.text(row.value(at: column(6))))
    }

    /// Where the column at a position of ``selection`` is in the rows read.
    @inline(__always) private func column(_ position: Int) -> Int {
        guard let positions else { return position }
        return positions[position]
    }

    /// Where the first field's column is in a selected row: after the row identifier and the
    /// metadata (``TableLayout/storedMetadata``).
    private static let firstFieldPosition = 1 + TableLayout.storedMetadata.count

    /// A list member read from JSON, given the kind the schema declares (JSON reads
    /// integral numbers as integers; a list of doubles keeps doubles).
    @_spi(StorageEngine) public static func member(_ value: Value, as elementType: FieldType) -> Value {
        switch (value, elementType) {
        case (.int(let integer), .double): .double(Double(integer))
        default: value
        }
    }

    private static func date(_ stored: SQLValue) -> Date? {
        switch stored {
        case .real(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): Date(timeIntervalSinceReferenceDate: Double(seconds))
        default: nil
        }
    }

    private static func text(_ stored: SQLValue) -> String? {
        if case .text(let text) = stored { return text }
        return nil
    }
}

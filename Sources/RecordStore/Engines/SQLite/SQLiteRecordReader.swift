import Foundation
import GRDB
import PredicateLanguage

/// Reads records of one type back from their rows and list members.
struct SQLiteRecordReader {
    let db: Database
    let schema: RecordTypeSchema
    let zone: ZoneID
    private let dialect = SQLiteDialect()

    /// The columns a query selects, in the order ``record(from:)`` reads them.
    var selection: String {
        let metadata = [TableLayout.recordNameColumn, TableLayout.creationDateColumn, TableLayout.modificationDateColumn, TableLayout.changeTagColumn]
        return (["t.rowid"] + (metadata + schema.fields.map(\.name)).map { "t.\(dialect.quote($0))" }).joined(separator: ", ")
    }

    /// The record a selected row holds.
    func record(from row: Row) throws -> Record {
        let rowID: Int64 = row[0]
        let recordName: String = row[1]
        let creation: Double? = row[2]
        let modification: Double? = row[3]
        let changeTag: String? = row[4]
        var fields: [String: Value] = [:]
        var listFields: [String: FieldType] = [:]
        for (offset, field) in schema.fields.enumerated() {
            let stored: DatabaseValue = row[5 + offset]
            if stored.isNull { continue }
            if let elementType = field.type.elementType {
                if case .string(let json) = stored.storage, case .list(let members)? = try? Value(jsonText: json) {
                    fields[field.name] = .list(members.map { SQLiteRecordReader.member($0, as: elementType) })
                } else {
                    // A list written before lists were stored inline: read its members from the side table.
                    listFields[field.name] = elementType
                    fields[field.name] = .list([])
                }
                continue
            }
            let value = SQLiteValueCoding.decode(stored, as: field.type)
            if !value.isNull { fields[field.name] = value }
        }
        if !listFields.isEmpty {
            let members = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT field, value FROM \(dialect.quote(TableLayout.listTable(schema.name))) WHERE record = ? ORDER BY field, position"),
                arguments: [rowID])
            var collected: [String: [Value]] = [:]
            while let member = try members.next() {
                let field: String = member[0]
                guard let elementType = listFields[field] else { continue }
                collected[field, default: []].append(SQLiteValueCoding.decode(member[1], as: elementType))
            }
            for (field, values) in collected { fields[field] = .list(values) }
        }
        return Record(
            recordType: schema.name, recordID: RecordID(recordName: recordName, zoneID: zone), fields: fields,
            creationDate: creation.map(Date.init(timeIntervalSinceReferenceDate:)),
            modificationDate: modification.map(Date.init(timeIntervalSinceReferenceDate:)),
            recordChangeTag: changeTag)
    }

    /// A list member read from JSON, given the kind the schema declares (JSON reads
    /// integral numbers as integers; a list of doubles keeps doubles).
    static func member(_ value: Value, as elementType: FieldType) -> Value {
        switch (value, elementType) {
        case (.int(let integer), .double): .double(Double(integer))
        case (.string(let text), .string): .string(text)
        default: value
        }
    }
}

// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

// The list tables' rows: one per member of a queryable list field, with its folded forms,
// written many to a statement and removed with their record (or replaced when it is updated).
extension PostgresRecordWriter {
    /// A list member's stored value and folded forms, in the list table's column order; throws
    /// for a member too long to index.
    static func memberValues(_ member: Value, field: String, recordType: String) throws(RecordStoreError) -> [SQLValue] {
        let stored = StoredValueEncoding.encode(member)
        try checkIndexable(stored, field: field, recordType: recordType, what: "a list member")
        var values = [stored]
        for form in DerivedColumn.memberForms {
            let folded = form.value(of: member)
            try checkIndexable(folded, field: field, recordType: recordType, what: "a list member's folded form")
            values.append(folded)
        }
        return values
    }

    /// Inserts the list members of records (their rows just written).
    func insertMembers(_ records: [(rowID: Int64, record: Record)], schema: RecordTypeSchema) async throws {
        for field in schema.fields where field.isQueryable {
            guard let elementType = field.type.elementType else { continue }
            let lists: [(rowID: Int64, members: [Value])] = records.compactMap { rowID, record in
                guard case .list(let members)? = record.fields[field.name] else { return nil }
                return (rowID, members)
            }
            try await Self.insertMembers(lists, of: field.name, elementType: elementType, recordType: schema.name, connection: connection)
        }
    }

    /// Inserts the members of one list field of rows already written, many to a statement
    /// (also when a list field becomes queryable on a populated store).
    static func insertMembers(
        _ lists: [(rowID: Int64, members: [Value])], of field: String, elementType: FieldType, recordType: String,
        connection: PostgresSQLConnection
    ) async throws {
        let dialect = PostgresDialect()
        var arguments: [SQLValue] = []
        var tuples = 0
        let table = PostgresDialect.quote(PostgresLayout.listTable(recordType, field: field))
        let folded = DerivedColumn.memberForms.map { PostgresDialect.quote(TableLayout.derivedColumn("value", $0)) }.joined(separator: ", ")
        let tuple = "(?, ?, \(elementType == .bool ? "?::integer::boolean" : "?")\(String(repeating: ", ?", count: DerivedColumn.memberForms.count)))"
        func flush() async throws {
            guard tuples > 0 else { return }
            let sql = "INSERT INTO \(table) (record, position, value, \(folded)) VALUES "
                + Array(repeating: tuple, count: tuples).joined(separator: ", ")
            try await connection.execute(SQLStatement(sql, arguments, dialect: dialect))
            arguments.removeAll(keepingCapacity: true)
            tuples = 0
        }
        for (rowID, members) in lists {
            for (position, member) in members.enumerated() {
                arguments += [.integer(rowID), .integer(Int64(position))]
                arguments += try memberValues(member, field: field, recordType: recordType)
                tuples += 1
                if arguments.count >= maximumArguments { try await flush() }
            }
        }
        try await flush()
    }

    /// Removes the list members of stored rows (before their records' new members are written).
    func deleteMembers(ofRows rowIDs: [Int64], schema: RecordTypeSchema) async throws {
        guard !rowIDs.isEmpty else { return }
        for field in schema.fields where field.type.isList && field.isQueryable {
            try await connection.execute(SQLStatement(
                sql: "DELETE FROM \(quote(PostgresLayout.listTable(schema.name, field: field.name))) WHERE record = ANY($1::bigint[])",
                arguments: [Self.integerArray(rowIDs)]))
        }
    }

    /// Integers as one bound `bigint[]` literal.
    static func integerArray(_ integers: [Int64]) -> SQLValue {
        .text("{" + integers.map(String.init).joined(separator: ",") + "}")
    }
}
#endif

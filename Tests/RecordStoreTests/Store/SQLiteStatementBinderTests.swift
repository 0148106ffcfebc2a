import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStoreSQLite
import Testing

/// The writer binds values straight into its statements (``SQLiteStatementBinder``); what it
/// writes equals what the general path, `execute(arguments:)` with `StatementArguments`, writes.
struct SQLiteStatementBinderTests {
    /// Values of every storage class, with the edges of each and strings in several spellings.
    static let values: [SQLValue] = [
        .null, .integer(0), .integer(-1), .integer(.min), .integer(.max), .real(-0.5), .real(1e300), .real(0),
        .text(""), .text("Paris"), .text("São Paulo"), .text("Sa\u{303}o Paulo"), .text("東京"), .text("city 🏙️ \"quoted\""),
        .blob(Data()), .blob(Data([0, 1, 255])),
    ]

    /// Every row of a table, in insertion order, as GRDB reads it.
    private static func rows(_ table: String, _ db: Database) throws -> [[DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { row in row.databaseValues.map { $0 } }
    }

    @Test func boundRowsEqualRowsWrittenWithArguments() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE general (a, b, c); CREATE TABLE bound (a, b, c)")
            // One statement for every row: each binding replaces the last one's.
            let statement = try db.makeStatement(sql: "INSERT INTO bound (a, b, c) VALUES (?, ?, ?)")
            let count = Self.values.count
            for first in 0..<count {
                for step in [1, 5, 7] {
                    let triple = [Self.values[first], Self.values[(first + step) % count], Self.values[(first + 2 * step) % count]]
                    try db.execute(
                        sql: "INSERT INTO general (a, b, c) VALUES (?, ?, ?)",
                        arguments: StatementArguments(triple.map(SQLiteValueConversion.databaseValue)))
                    var row = SQLiteStatementBinder(statement, parameterCount: 3)
                    for value in triple { try row.bind(value) }
                    try row.execute()
                }
            }
            let general = try Self.rows("general", db)
            #expect(general.count == count * 3)
            #expect(try Self.rows("bound", db) == general)
            let types = "SELECT typeof(a), typeof(b), typeof(c) FROM"
            #expect(try String.fetchAll(db, sql: "\(types) bound ORDER BY rowid") == String.fetchAll(db, sql: "\(types) general ORDER BY rowid"))
        }
    }

    @Test func aStatementMissingAParameterIsNotRun() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            var row = SQLiteStatementBinder(try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"), parameterCount: 2)
            try row.bind("only one")
            #expect(throws: RecordStoreError.self) { try row.execute() }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
        }
    }

    /// A type with a field of every kind the row layout writes differently: strings (spelling
    /// and derived columns), numbers, lists (JSON), locations (latitude and longitude columns).
    static let schema = RecordTypeSchema(name: "Place", fields: [
        FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true),
        FieldSchema(name: "code", type: .string, isQueryable: true, isSortable: false),
        FieldSchema(name: "plain", type: .string, isQueryable: false, isSortable: false),
        FieldSchema(name: "population", type: .int64),
        FieldSchema(name: "area", type: .double),
        FieldSchema(name: "names", type: .list(.string), isQueryable: false, isSortable: false),
        FieldSchema(name: "location", type: .location),
        FieldSchema(name: "founded", type: .date),
    ])

    /// Records with present, missing and unusual values.
    static let records: [RecordStoreCore.Record] = {
        let spellings = ["Paris", "São Paulo", "Sa\u{303}o Paulo", "Straße", "東京", "", "İstanbul", "e\u{301}\u{301}"]
        return spellings.indices.map { index in
            var record = RecordStoreCore.Record(recordType: "Place", recordID: RecordID(recordName: "r\(index)", zoneID: index % 3 == 0 ? .default : ZoneID(zoneName: "z")))
            record["name"] = .string(spellings[index])
            if index % 2 == 0 { record["code"] = .string(spellings[(index + 3) % spellings.count].uppercased()) }
            record["plain"] = .string(spellings[(index + 1) % spellings.count])
            if index != 4 { record["population"] = .int(Int64(index) * 1_000_003) }
            record["area"] = .double(Double(index) / 3)
            record["names"] = .list(spellings.prefix(index).map(Value.string))
            if index % 3 != 1 { record["location"] = .location(Location(latitude: Double(index) - 45.5, longitude: 179.25 - Double(index))) }
            record["founded"] = .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.5))
            return record
        }
    }()

    /// The row of a record as the general path computes it: each column's value by the shared
    /// encodings, one at a time (the writer's layout, before it bound values directly).
    static func generalRowValues(of record: RecordStoreCore.Record, _ layout: SQLiteRowLayout) -> [DatabaseValue] {
        var values: [DatabaseValue] = [
            TableLayout.zoneKey(record.recordID.zoneID).databaseValue, record.recordID.recordName.databaseValue,
            (record.creationDate?.timeIntervalSinceReferenceDate).databaseValue,
            (record.modificationDate?.timeIntervalSinceReferenceDate).databaseValue, record.recordChangeTag.databaseValue,
            record.creatorUserRecordName.databaseValue, record.lastModifiedUserRecordName.databaseValue,
        ]
        for field in layout.fields {
            let value = record.fields[field.schema.name] ?? .null
            if case .list = value {
                values.append(value.jsonText().databaseValue)
            } else {
                values.append(SQLiteValueConversion.databaseValue(StoredValueEncoding.encode(value)))
            }
            if field.hasSpelling { values.append(SQLiteValueConversion.databaseValue(StoredSpelling.value(of: value))) }
            for derived in field.derived { values.append(SQLiteValueConversion.databaseValue(derived.value(of: value))) }
            if field.isLocation {
                if case .location(let location) = value {
                    values += [location.latitude.databaseValue, location.longitude.databaseValue]
                } else {
                    values += [.null, .null]
                }
            }
        }
        return values
    }

    @Test func theRowLayoutBindsWhatTheGeneralPathComputes() throws {
        let layout = SQLiteRowLayout(Self.schema)
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let columns = layout.columns.map(SQLiteDialect.quote).joined(separator: ", ")
            try db.execute(sql: "CREATE TABLE general (\(columns)); CREATE TABLE Place (\(columns))")
            let generalInsert = try db.makeStatement(sql: layout.insertSQL.replacingOccurrences(of: "INTO \"Place\"", with: "INTO general"))
            let insert = try db.makeStatement(sql: layout.insertSQL)
            for record in Self.records {
                let values = Self.generalRowValues(of: record, layout)
                #expect(values.count == layout.columns.count)
                try generalInsert.execute(arguments: StatementArguments(values))
                var row = SQLiteStatementBinder(insert, parameterCount: layout.columns.count)
                try layout.bindRowValues(of: record, to: &row)
                try row.execute()
            }
            let general = try Self.rows("general", db)
            #expect(general.count == Self.records.count)
            #expect(try Self.rows("Place", db) == general)
            // The spelling column holds exactly the spellings that are not in NFC.
            let spellings = try String?.fetchAll(db, sql: "SELECT \(SQLiteDialect.quote(TableLayout.spellingColumn("name"))) FROM Place ORDER BY rowid")
            #expect(spellings == Self.records.map { record in
                guard case .string(let name)? = record["name"] else { return nil }
                return name.utf8.elementsEqual(TextFolding.normalized(name).utf8) ? nil : name
            })
        }
    }
}

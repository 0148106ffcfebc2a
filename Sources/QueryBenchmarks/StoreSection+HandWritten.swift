import Foundation
import GRDB
import PredicateLanguage
import RecordStore

/// The hand-written sides of the store section: reading rows through GRDB as the engine decodes
/// them, and the bare one-table import.
extension StoreSection {
    /// The columns of a city record's row: metadata and fields.
    static let recordColumns = [
        "$zone", "$recordName", "$creationDate", "$modificationDate", "$recordChangeTag", "admin1code", "alternatenames",
        "countrycode", "geonameid", "latitude", "location", "location$latitude", "location$longitude", "longitude", "name",
        "population", "timezone",
    ]

    /// Rows decoded into dictionaries of values; a list is decoded from the JSON its row holds,
    /// as the engine reads it (the list table serves queries only).
    static func handWrittenRecords(_ db: GRDB.Database, sql: String, arguments: StatementArguments, origin: Location?, radius: Double) throws -> [[String: Value]] {
        var records: [[String: Value]] = []
        // The record's own columns, as the engine reads them (not the derived columns).
        let columns = recordColumns.map { "\"\($0)\"" }
        let rows = try Row.fetchCursor(db, sql: sql.replacingOccurrences(of: "SELECT *", with: "SELECT rowid, \(columns.joined(separator: ", "))")
                                        .replacingOccurrences(of: "SELECT t.*", with: "SELECT t.rowid, \(columns.map { "t." + $0 }.joined(separator: ", "))"),
                                       arguments: arguments)
        while let row = try rows.next() {
            var fields: [String: Value] = [:]
            for (column, databaseValue) in row.dropFirst() {
                switch databaseValue.storage {
                case .null: continue
                case .int64(let integer): fields[column] = .int(integer)
                case .double(let double): fields[column] = .double(double)
                case .string(let text) where column == "alternatenames": fields[column] = (try? Value(jsonText: text)) ?? .string(text)
                case .string(let text): fields[column] = .string(text)
                case .blob(let data): fields[column] = .bytes(data)
                }
            }
            if let origin {
                guard case .double(let latitude)? = fields["location$latitude"], case .double(let longitude)? = fields["location$longitude"],
                      Location(latitude: latitude, longitude: longitude).distance(to: origin) < radius else { continue }
            }
            records.append(fields)
        }
        return records
    }

    /// The baseline import: one table with a column per field, lists as JSON text,
    /// 5,000 rows per transaction through one prepared statement.
    static func handWrittenImport(_ cities: [[String: Value]], path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let columns = ["geonameid", "name", "latitude", "longitude", "countrycode", "population", "timezone", "admin1code", "alternatenames"]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE city (\(columns.map { "\($0)" }.joined(separator: ", ")))")
            try db.execute(sql: "CREATE INDEX city_name ON city(name)")
            try db.execute(sql: "CREATE INDEX city_population ON city(population)")
        }
        let insert = "INSERT INTO city VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        var start = 0
        while start < cities.count {
            let batch = cities[start..<min(start + 5_000, cities.count)]
            try queue.write { db in
                let statement = try db.cachedStatement(sql: insert)
                for city in batch {
                    let values: [DatabaseValue] = columns.map { column in
                        switch city[column] ?? .null {
                        case .int(let integer): integer.databaseValue
                        case .double(let double): double.databaseValue
                        case .string(let text): text.databaseValue
                        case .list(let list): Value.list(list).jsonText().databaseValue
                        default: .null
                        }
                    }
                    try statement.execute(arguments: StatementArguments(values))
                }
            }
            start += 5_000
        }
    }
}

import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// The fair import baseline: hand-written batched inserts that build the same
/// layout the SQLite engine builds (the type table with an index per field, the
/// folded forms and sort keys of each string field with their indexes, the list side
/// table and its indexes, the full-text table, the R*Tree, the record registry),
/// 5,000 records a transaction into the already indexed tables, with no conflict checks.
enum SameLayoutImport {
    static let schema = [
        #"CREATE TABLE "$records" (zone TEXT NOT NULL, recordName TEXT NOT NULL, recordType TEXT NOT NULL, PRIMARY KEY (zone, recordName)) WITHOUT ROWID"#,
        #"CREATE TABLE "City" ("$zone" TEXT NOT NULL, "$recordName" TEXT NOT NULL, "$creationDate" REAL, "$modificationDate" REAL, "$recordChangeTag" TEXT, "admin1code", "alternatenames", "countrycode", "geonameid", "latitude", "location", "location$latitude" REAL, "location$longitude" REAL, "longitude", "name", "population", "timezone")"#,
        #"CREATE UNIQUE INDEX "City$$record" ON "City" ("$zone", "$recordName")"#,
        #"CREATE TABLE "City$list" (record INTEGER NOT NULL, field TEXT NOT NULL, position INTEGER NOT NULL, value, "value$c", "value$cd")"#,
        #"CREATE INDEX "City$list$value" ON "City$list" (field, value, record)"#,
        #"CREATE INDEX "City$list$c" ON "City$list" (field, "value$c", record)"#,
        #"CREATE INDEX "City$list$cd" ON "City$list" (field, "value$cd", record)"#,
        #"CREATE INDEX "City$list$record" ON "City$list" (record)"#,
        #"CREATE VIRTUAL TABLE "City$location$rtree" USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude)"#,
        #"CREATE VIRTUAL TABLE "City$fts" USING fts5(body, tokenize = 'ascii')"#,
    ] + ["admin1code", "countrycode", "geonameid", "latitude", "longitude", "name", "population", "timezone"].map {
        #"CREATE INDEX "City$\#($0)$index" ON "City" ("$zone", "\#($0)", "$recordName")"#
    } + stringColumns.flatMap { field in
        DerivedColumn.allCases.flatMap { derived in [
            #"ALTER TABLE "City" ADD COLUMN "\#(field)$\#(derived.rawValue)""#,
            #"CREATE INDEX "City$\#(field)$\#(derived.rawValue)$index" ON "City" ("$zone", "\#(field)$\#(derived.rawValue)", "$recordName")"#,
        ] }
    }

    /// The string fields, each with its folded forms and sort keys (as the engine's derived columns).
    static let stringColumns = ["admin1code", "countrycode", "name", "timezone"]
    static let derivedColumnNames = stringColumns.flatMap { field in DerivedColumn.allCases.map { "\(field)$\($0.rawValue)" } }

    static let scalarColumns = ["admin1code", "countrycode", "geonameid", "latitude", "longitude", "name", "population", "timezone"]

    static func run(_ cities: [[String: Value]], path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            for statement in schema { try db.execute(sql: statement) }
        }
        let columns = ["$zone", "$recordName", "$creationDate", "$modificationDate", "$recordChangeTag", "alternatenames",
                       "location", "location$latitude", "location$longitude"] + scalarColumns + derivedColumnNames
        let insertCity = #"INSERT INTO "City" (\#(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\#(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"#
        var start = 0
        let now = Date().timeIntervalSinceReferenceDate
        while start < cities.count {
            let batch = cities[start..<min(start + 5_000, cities.count)]
            try pool.write { db in
                let registry = try db.cachedStatement(sql: #"INSERT INTO "$records" (zone, recordName, recordType) VALUES (?, ?, 'City')"#)
                let city = try db.cachedStatement(sql: insertCity)
                let member = try db.cachedStatement(sql: #"INSERT INTO "City$list" (record, field, position, value, "value$c", "value$cd") VALUES (?, 'alternatenames', ?, ?, ?, ?)"#)
                let fullText = try db.cachedStatement(sql: #"INSERT INTO "City$fts" (rowid, body) VALUES (?, ?)"#)
                let rtree = try db.cachedStatement(sql: #"INSERT INTO "City$location$rtree" VALUES (?, ?, ?, ?, ?)"#)
                for fields in batch {
                    let name = fields["geonameid"].map { value -> String in
                        if case .int(let integer) = value { return String(integer) }
                        return value.stringValue ?? ""
                    } ?? UUID().uuidString
                    try registry.execute(arguments: ["_defaultZone", name])
                    let latitude = fields["latitude"]?.numericValue ?? 0
                    let longitude = fields["longitude"]?.numericValue ?? 0
                    let names = fields["alternatenames"]?.listValue ?? []
                    var values: [DatabaseValue] = [
                        "_defaultZone".databaseValue, name.databaseValue, now.databaseValue, now.databaseValue,
                        UUID().uuidString.databaseValue, Value.list(names).jsonText().databaseValue,
                        "\(latitude),\(longitude)".databaseValue, latitude.databaseValue, longitude.databaseValue,
                    ]
                    for column in scalarColumns {
                        switch fields[column] ?? .null {
                        case .int(let integer): values.append(integer.databaseValue)
                        case .double(let double): values.append(double.databaseValue)
                        case .string(let text): values.append(text.databaseValue)
                        default: values.append(.null)
                        }
                    }
                    for field in stringColumns {
                        for derived in DerivedColumn.allCases {
                            switch derived.value(of: fields[field] ?? .null) {
                            case .text(let text): values.append(text.databaseValue)
                            case .blob(let bytes): values.append(bytes.databaseValue)
                            default: values.append(.null)
                            }
                        }
                    }
                    try city.execute(arguments: StatementArguments(values))
                    let rowID = db.lastInsertedRowID
                    for (position, alternate) in names.enumerated() {
                        let text = alternate.stringValue ?? ""
                        try member.execute(arguments: [
                            rowID, position, text, TextFolding.fold(text, options: .caseInsensitive),
                            TextFolding.fold(text, options: [.caseInsensitive, .diacriticInsensitive]),
                        ])
                    }
                    let searchable = ["admin1code", "countrycode", "name", "timezone"].compactMap { fields[$0]?.stringValue }
                    try fullText.execute(arguments: [rowID, searchable.flatMap(FullTextTokenizer.tokens).joined(separator: " ")])
                    try rtree.execute(arguments: [rowID, latitude, latitude, longitude, longitude])
                }
            }
            start += 5_000
        }
    }
}

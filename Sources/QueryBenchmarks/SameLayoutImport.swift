import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The fair import and size baseline: hand-written batched inserts that build the layout the
/// SQLite engine builds for cities1000 under an ``IndexPolicy`` (the type table with an index per
/// indexed field, the folded forms of each string field and, when `SORTABLE`, its sort keys, with
/// their indexes; the list side table, with members and their indexes only when lists are
/// `QUERYABLE`; the full-text table; the location's band index; the record registry), 5,000 records a
/// transaction into the already indexed tables, with no conflict checks.
///
/// ```swift
/// try SameLayoutImport(indexes: .automatic).run(cities, path: "/tmp/same-layout.sqlite")
/// ```
struct SameLayoutImport {
    /// The index types the layout copies: the ones the engine gives just-in-time fields under this policy.
    let indexes: IndexPolicy

    /// The string fields: each has its folded forms and, under ``IndexPolicy/all``, its sort keys.
    static let stringColumns = ["admin1code", "countrycode", "name", "timezone"]
    /// Every scalar field (strings, numbers): each has an index under both policies.
    static let scalarColumns = ["admin1code", "countrycode", "geonameid", "latitude", "longitude", "name", "population", "timezone"]

    /// The derived columns a string field gets under the policy, as the engine names them.
    var derivedColumns: [DerivedColumn] {
        DerivedColumn.columns(for: indexes.field(named: "name", type: .string))
    }

    /// Whether list members go to the list table (the list is `QUERYABLE`).
    var writesListMembers: Bool {
        indexes.field(named: "alternatenames", type: .list(.string)).isQueryable
    }

    /// The derived column names of every string field, in the order the insert binds them.
    var derivedColumnNames: [String] {
        Self.stringColumns.flatMap { field in derivedColumns.map { "\(field)$\($0.rawValue)" } }
    }

    /// The statements that create the layout, indexes included.
    var schema: [String] {
        let spellings = Self.stringColumns.map { #", "\#($0)$raw" TEXT"# }.joined()
        var statements = [
            #"CREATE TABLE "$records" (zone TEXT NOT NULL, recordName TEXT NOT NULL, recordType TEXT NOT NULL, PRIMARY KEY (zone, recordName)) WITHOUT ROWID"#,
            #"CREATE TABLE "City" ("$zone" TEXT NOT NULL, "$recordName" TEXT NOT NULL, "$creationDate" REAL, "$modificationDate" REAL, "$recordChangeTag" TEXT, "admin1code", "alternatenames", "countrycode", "geonameid", "latitude", "location", "location$latitude" REAL, "location$longitude" REAL, "longitude", "name", "population", "timezone"\#(spellings))"#,
            #"CREATE UNIQUE INDEX "City$$record" ON "City" ("$zone", "$recordName")"#,
            #"CREATE TABLE "City$list" (record INTEGER NOT NULL, field TEXT NOT NULL, position INTEGER NOT NULL, value, "value$c", "value$cd")"#,
            #"CREATE INDEX "City$list$record" ON "City$list" (record)"#,
            #"CREATE INDEX "City$location$index" ON "City" (CAST(("location$latitude" + 90) * 2 AS INTEGER), "location$longitude", "location$latitude")"#,
            #"CREATE VIRTUAL TABLE "City$fts" USING fts5(body, tokenize = 'ascii', detail = none, columnsize = 0)"#,
        ]
        if writesListMembers {
            statements += [
                #"CREATE INDEX "City$list$value" ON "City$list" (field, value, record)"#,
                #"CREATE INDEX "City$list$c" ON "City$list" (field, "value$c", record)"#,
                #"CREATE INDEX "City$list$cd" ON "City$list" (field, "value$cd", record)"#,
            ]
        }
        statements += Self.scalarColumns.map {
            #"CREATE INDEX "City$\#($0)$index" ON "City" ("$zone", "\#($0)", "$recordName")"#
        }
        statements += Self.stringColumns.flatMap { field in
            derivedColumns.flatMap { derived in [
                #"ALTER TABLE "City" ADD COLUMN "\#(field)$\#(derived.rawValue)""#,
                #"CREATE INDEX "City$\#(field)$\#(derived.rawValue)$index" ON "City" ("$zone", "\#(field)$\#(derived.rawValue)", "$recordName")"#,
            ] }
        }
        return statements
    }

    /// Creates the layout at `path` and inserts the cities into it.
    func run(_ cities: [[String: Value]], path: String) throws {
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
                       "location", "location$latitude", "location$longitude"] + Self.scalarColumns + derivedColumnNames
        let insertCity = #"INSERT INTO "City" (\#(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\#(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"#
        let derivedColumns = derivedColumns
        let writesListMembers = writesListMembers
        var start = 0
        let now = Date().timeIntervalSinceReferenceDate
        while start < cities.count {
            let batch = cities[start..<min(start + 5_000, cities.count)]
            try pool.write { db in
                let registry = try db.cachedStatement(sql: #"INSERT INTO "$records" (zone, recordName, recordType) VALUES (?, ?, 'City')"#)
                let city = try db.cachedStatement(sql: insertCity)
                let member = try db.cachedStatement(sql: #"INSERT INTO "City$list" (record, field, position, value, "value$c", "value$cd") VALUES (?, 'alternatenames', ?, ?, ?, ?)"#)
                let fullText = try db.cachedStatement(sql: #"INSERT INTO "City$fts" (rowid, body) VALUES (?, ?)"#)
                for fields in batch {
                    let name = fields["geonameid"].map { value -> String in
                        if case .int(let integer) = value { return String(integer) }
                        return value.stringValue ?? ""
                    } ?? UUID().uuidString
                    try registry.execute(arguments: [StoreSection.defaultZoneKey, name])
                    let latitude = fields["latitude"]?.numericValue ?? 0
                    let longitude = fields["longitude"]?.numericValue ?? 0
                    let names = fields["alternatenames"]?.listValue ?? []
                    var values: [DatabaseValue] = [
                        StoreSection.defaultZoneKey.databaseValue, name.databaseValue, now.databaseValue, now.databaseValue,
                        UUID().uuidString.databaseValue, Value.list(names).jsonText().databaseValue,
                        "\(latitude),\(longitude)".databaseValue, latitude.databaseValue, longitude.databaseValue,
                    ]
                    for column in Self.scalarColumns {
                        switch fields[column] ?? .null {
                        case .int(let integer): values.append(integer.databaseValue)
                        case .double(let double): values.append(double.databaseValue)
                        case .string(let text): values.append(text.databaseValue)
                        default: values.append(.null)
                        }
                    }
                    for field in Self.stringColumns {
                        for derived in derivedColumns {
                            switch derived.value(of: fields[field] ?? .null) {
                            case .text(let text): values.append(text.databaseValue)
                            case .blob(let bytes): values.append(bytes.databaseValue)
                            default: values.append(.null)
                            }
                        }
                    }
                    try city.execute(arguments: StatementArguments(values))
                    let rowID = db.lastInsertedRowID
                    if writesListMembers {
                        for (position, alternate) in names.enumerated() {
                            let text = alternate.stringValue ?? ""
                            try member.execute(arguments: [
                                rowID, position, text, TextFolding.fold(text, options: .caseInsensitive),
                                TextFolding.fold(text, options: [.caseInsensitive, .diacriticInsensitive]),
                            ])
                        }
                    }
                    let searchable = Self.stringColumns.compactMap { fields[$0]?.stringValue }
                    try fullText.execute(arguments: [rowID, searchable.flatMap(FullTextTokenizer.tokens).joined(separator: " ")])
                }
            }
            start += 5_000
        }
    }
}

import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The SQL that every SQL engine shares: reading the catalog and the zones, looking records up
/// by identifier, and running queries (records, counts, aggregates) through ``PreparedQuery``,
/// ``SelectExecution``, ``CountExecution`` and ``AggregateStatement``.
///
/// An executor writes statements for one ``SQLDialect`` and runs them on a ``SQLConnection``
/// the engine hands it, inside a transaction the engine opened. Its driver
/// (`SQLExecutor+Driver.swift`) only runs statements; every decision is in the shared types.
///
/// What stays in an engine: its schema storage (tables, columns, indexes), its record writer
/// (the row and its side structures), `EXPLAIN`, and statistics.
///
/// ```swift
/// let executor = SQLExecutor(dialect: SQLiteDialect(registry: registry))
/// let cities = try await executor.records(specification, on: connection)
/// ```
@_spi(StorageEngine) public struct SQLExecutor: Sendable {
    @_spi(StorageEngine) public let dialect: any SQLDialect
    /// The last catalog read, with the JSON text it came from: decoded once per change.
    private let cachedCatalog = LockedState<(text: String, catalog: SchemaCatalog)>(("", SchemaCatalog()))

    /// An executor writing statements for a dialect.
    @_spi(StorageEngine) public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private func quote(_ name: String) -> String { dialect.quote(name) }

    // MARK: Catalog

    /// Reads the stored catalog's JSON text (one row, one column; no row before the first schema).
    @_spi(StorageEngine) public var catalogStatement: SQLStatement {
        SQLStatement("SELECT catalog FROM \(quote(TableLayout.schemaTable)) WHERE id = 1", dialect: dialect)
    }

    /// Reads a query's context in one statement: the catalog's JSON text and whether the zone exists.
    @_spi(StorageEngine) public func contextStatement(zone: ZoneID) -> SQLStatement {
        SQLStatement(
            "SELECT (SELECT catalog FROM \(quote(TableLayout.schemaTable)) WHERE id = 1), "
                + "(SELECT count(*) FROM \(quote(TableLayout.zonesTable)) WHERE name = ?)",
            [.text(zone.zoneName)], dialect: dialect)
    }

    /// Stores the catalog.
    @_spi(StorageEngine) public func saveCatalogStatement(_ catalog: SchemaCatalog) throws -> SQLStatement {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(catalog), as: UTF8.self)
        return SQLStatement(
            "INSERT INTO \(quote(TableLayout.schemaTable)) (id, catalog) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET catalog = excluded.catalog",
            [.text(text)], dialect: dialect)
    }

    /// The catalog a stored JSON text holds (empty text or null: no record type yet).
    @_spi(StorageEngine) public func catalog(from stored: SQLValue) throws -> SchemaCatalog {
        guard case .text(let text) = stored, !text.isEmpty else { return SchemaCatalog() }
        if let cached = cachedCatalog.withLock({ $0.text == text ? $0.catalog : nil }) { return cached }
        let catalog = try JSONDecoder().decode(SchemaCatalog.self, from: Data(text.utf8))
        cachedCatalog.withLock { $0 = (text, catalog) }
        return catalog
    }

    /// The catalog and the zone's existence, from a row of ``contextStatement(zone:)``.
    @_spi(StorageEngine) public func context(from row: some SQLRow) throws -> (catalog: SchemaCatalog, zoneExists: Bool) {
        let zoneCount: Int64
        if case .integer(let count) = row.value(at: 1) { zoneCount = count } else { zoneCount = 0 }
        return (try catalog(from: row.value(at: 0)), zoneCount > 0)
    }

    // MARK: Zones

    /// Every zone name, in code-point order.
    @_spi(StorageEngine) public var zonesStatement: SQLStatement {
        SQLStatement("SELECT name FROM \(quote(TableLayout.zonesTable)) ORDER BY \(dialect.codePointOrder("name"))", dialect: dialect)
    }

    /// One row when the zone exists.
    @_spi(StorageEngine) public func zoneExistsStatement(_ zone: ZoneID) -> SQLStatement {
        SQLStatement("SELECT 1 FROM \(quote(TableLayout.zonesTable)) WHERE name = ?", [.text(zone.zoneName)], dialect: dialect)
    }

    /// The names, among these zone names, of the zones that exist (a row each).
    @_spi(StorageEngine) public func existingZonesStatement(_ names: [String]) -> SQLStatement {
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return SQLStatement("SELECT name FROM \(quote(TableLayout.zonesTable)) WHERE name IN (\(placeholders))", names.map { .text($0) }, dialect: dialect)
    }

    /// The zones from the names read: the default zone first.
    @_spi(StorageEngine) public func zones(named names: [String]) -> [ZoneID] {
        [ZoneID.default] + names.filter { $0 != ZoneID.default.zoneName }.map(ZoneID.init(zoneName:))
    }

    // MARK: Lookups

    /// How many record names one lookup statement names at most (well under SQLite's and
    /// PostgreSQL's limits on placeholders).
    @_spi(StorageEngine) public static let lookupChunk = 500

    /// The record names and types the registry holds among these names of a zone.
    @_spi(StorageEngine) public func registryStatement(_ zone: ZoneID, recordNames: some Collection<String>) -> SQLStatement {
        SQLStatement(
            "SELECT recordName, recordType FROM \(quote(TableLayout.registryTable)) WHERE zone = ? AND recordName IN (\(Self.placeholders(recordNames.count)))",
            [.text(TableLayout.zoneKey(zone))] + recordNames.map(SQLValue.text), dialect: dialect)
    }

    /// The rows of these stored records of one zone and type, read by the reader.
    @_spi(StorageEngine) public func recordStatement(_ zone: ZoneID, recordNames: some Collection<String>, reader: RecordRowReader) -> SQLStatement {
        SQLStatement(
            "SELECT \(reader.selection) FROM \(quote(TableLayout.recordTable(reader.schema.name))) AS t "
                + "WHERE t.\(quote(TableLayout.zoneColumn)) = ? AND t.\(quote(TableLayout.recordNameColumn)) IN (\(Self.placeholders(recordNames.count)))",
            [.text(TableLayout.zoneKey(zone))] + recordNames.map(SQLValue.text), dialect: dialect)
    }

    /// `?, ?, …`: `count` placeholders.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The rows of a query's matches, grouped and aggregated in Swift (when a residual keeps the work out of SQL).
    @_spi(StorageEngine) public func aggregatedInSwift(_ records: [Record], groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]] {
        try Aggregation(groupBy: groupBy, aggregates: aggregates).rows(records)
    }
}

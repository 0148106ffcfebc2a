import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

// The driver: each statement is awaited, so no cooperative thread waits on a server's database;
// on SQLite's connection nothing suspends.
extension SQLExecutor {
    // MARK: Driver

    /// The catalog.
    @_spi(StorageEngine) public func catalog<Connection: SQLConnection>(on connection: Connection) async throws -> SchemaCatalog {
        try await connection.firstRow(catalogStatement) { row in try catalog(from: row.value(at: 0)) } ?? SchemaCatalog()
    }

    /// The zones, the default zone first.
    @_spi(StorageEngine) public func zones<Connection: SQLConnection>(on connection: Connection) async throws -> [ZoneID] {
        var names: [String] = []
        try await connection.forEachRow(zonesStatement) { row in
            if case .text(let name) = row.value(at: 0) { names.append(name) }
            return true
        }
        return zones(named: names)
    }

    /// Creates a zone unless it exists.
    /// Whether a zone exists.
    @_spi(StorageEngine) public func zoneExists<Connection: SQLConnection>(_ zone: ZoneID, on connection: Connection) async throws -> Bool {
        try await connection.firstRow(zoneExistsStatement(zone)) { _ in true } ?? false
    }

    /// Which of these zones exist: one statement per ``lookupChunk`` zones, not one per zone.
    @_spi(StorageEngine) public func existingZones<Connection: SQLConnection>(among zones: Set<ZoneID>, on connection: Connection) async throws -> Set<ZoneID> {
        let names = zones.map(\.zoneName).sorted()
        var found = Set<String>()
        for start in stride(from: 0, to: names.count, by: Self.lookupChunk) {
            let chunk = names[start..<min(start + Self.lookupChunk, names.count)]
            try await connection.forEachRow(existingZonesStatement(Array(chunk))) { row in
                if case .text(let name) = row.value(at: 0) { found.insert(name) }
                return true
            }
        }
        return zones.filter { found.contains($0.zoneName) }
    }

    /// The stored records with these identifiers, read a zone and ``lookupChunk`` names at a
    /// time: the registry's types of the chunk in one statement, then each type's rows in one
    /// more, so that looking up N records of one zone and type costs two statements per chunk
    /// rather than two per record. The names are read in code-point order, so that the
    /// statements a lookup runs depend on its names only.
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(for ids: [RecordID], on connection: Connection) async throws -> [RecordID: Record] {
        let catalog = try await catalog(on: connection)
        var found: [RecordID: Record] = [:]
        var namesByZone: [ZoneID: [String]] = [:]
        for id in Set(ids) { namesByZone[id.zoneID, default: []].append(id.recordName) }
        for zone in namesByZone.keys.sorted(by: { $0.zoneName < $1.zoneName }) {
            let names = namesByZone[zone, default: []].sorted()
            for start in stride(from: 0, to: names.count, by: Self.lookupChunk) {
                let chunk = names[start..<min(start + Self.lookupChunk, names.count)]
                var namesByType: [String: [String]] = [:]
                try await connection.forEachRow(registryStatement(zone, recordNames: chunk)) { row in
                    if case .text(let name) = row.value(at: 0), case .text(let type) = row.value(at: 1) { namesByType[type, default: []].append(name) }
                    return true
                }
                for (type, typeNames) in namesByType {
                    guard let schema = catalog.recordTypes[type] else { continue }
                    let reader = RecordRowReader(schema: schema, zone: zone, dialect: dialect)
                    try await connection.forEachRow(recordStatement(zone, recordNames: typeNames, reader: reader)) { row in
                        let record = try reader.record(from: row)
                        found[record.recordID] = record
                        return true
                    }
                }
            }
        }
        return found
    }

    /// A query checked and planned against the connection's snapshot; nil when its type has no table.
    @_spi(StorageEngine) public func prepare<Connection: SQLConnection>(_ specification: QuerySpecification, on connection: Connection) async throws -> PreparedQuery? {
        guard let context = try await queryContext(specification, on: connection) else { return nil }
        return try await prepare(specification, context: context, on: connection)
    }

    /// The catalog and the zone's existence in the connection's snapshot; nil before the first schema.
    func queryContext<Connection: SQLConnection>(_ specification: QuerySpecification, on connection: Connection) async throws -> (catalog: SchemaCatalog, zoneExists: Bool)? {
        try await connection.firstRow(contextStatement(zone: specification.zone)) { row in try self.context(from: row) }
    }

    /// A query checked and planned against a context read in the connection's snapshot.
    func prepare<Connection: SQLConnection>(
        _ specification: QuerySpecification, context: (catalog: SchemaCatalog, zoneExists: Bool), on connection: Connection
    ) async throws -> PreparedQuery {
        var prepared = try PreparedQuery(specification, catalog: context.catalog, zoneExists: context.zoneExists, dialect: dialect)
        if let check = prepared.parserCheck, try await !connection.canPrepare(check) { try prepared.fallBackToScan() }
        return prepared
    }

    /// The records a query selects, in order. A query on a type with subtypes selects every
    /// concrete type's records in one statement (``HierarchyUnion``), or, when its branches
    /// cannot share one (SQL does not order them), runs one query per concrete type and merges
    /// them (``HierarchyQuery``).
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(_ specification: QuerySpecification, on connection: Connection) async throws -> [Record] {
        guard let context = try await queryContext(specification, on: connection) else { return [] }
        if let hierarchy = try HierarchyQuery(specification, catalog: context.catalog) {
            var branches: [PreparedQuery] = []
            for branch in hierarchy.branches {
                branches.append(try await renaming(hierarchy) { try await prepare(branch, context: context, on: connection) })
            }
            if let union = HierarchyUnion(hierarchy, branches: branches, dialect: dialect) {
                return try await renaming(hierarchy) { try await records(union, on: connection) }
            }
            var pages: [[Record]] = []
            for branch in branches {
                pages.append(try await renaming(hierarchy) { try await records(branch, on: connection) })
            }
            return hierarchy.merge(pages)
        }
        return try await records(prepare(specification, context: context, on: connection), on: connection)
    }

    /// The records of a hierarchy's branches selected together, in order.
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(_ union: HierarchyUnion, on connection: Connection) async throws -> [Record] {
        var execution = try UnionExecution(union)
        try await run(&execution, deadlineOf: union.branches[0], on: connection)
        return execution.records
    }

    /// Runs a branch of a hierarchy query; its errors name the queried type (``HierarchyQuery/renamed(_:)``).
    func renaming<T>(_ hierarchy: HierarchyQuery, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RecordStoreError {
            throw hierarchy.renamed(error)
        }
    }

    /// The records a reference lookup finds (the deletion rules' inverse step), one query per batch.
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(matching lookup: ReferenceLookup, on connection: Connection) async throws -> [Record] {
        var found: [Record] = []
        for specification in lookup.specifications {
            found += try await records(specification, on: connection)
        }
        return found
    }

    /// The records a uniqueness lookup finds (the records a save's records may conflict with), one query per batch.
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(matching lookup: UniquenessLookup, on connection: Connection) async throws -> [Record] {
        var found: [Record] = []
        for specification in lookup.specifications {
            found += try await records(specification, on: connection)
        }
        return found
    }

    /// The records of a prepared query, in order.
    @_spi(StorageEngine) public func records<Connection: SQLConnection>(_ prepared: PreparedQuery, on connection: Connection) async throws -> [Record] {
        var execution = try SelectExecution(prepared, dialect: dialect)
        try await run(&execution, deadlineOf: prepared, on: connection)
        return execution.finish()
    }

    /// How many records a query selects.
    @_spi(StorageEngine) public func count<Connection: SQLConnection>(_ specification: QuerySpecification, on connection: Connection) async throws -> Int {
        guard let context = try await queryContext(specification, on: connection) else { return 0 }
        if let hierarchy = try HierarchyQuery(specification, catalog: context.catalog) {
            var counts: [Int] = []
            for branch in hierarchy.branches {
                counts.append(try await renaming(hierarchy) { try await count(prepare(branch, context: context, on: connection), on: connection) })
            }
            return hierarchy.count(counts)
        }
        return try await count(prepare(specification, context: context, on: connection), on: connection)
    }

    /// How many records a prepared query selects.
    @_spi(StorageEngine) public func count<Connection: SQLConnection>(_ prepared: PreparedQuery, on connection: Connection) async throws -> Int {
        var execution = try CountExecution(prepared, dialect: dialect)
        try await connection.stoppingStatements(of: prepared) {
            try await connection.forEachRow(execution.statement) { row in try execution.accept(row) }
        }
        return execution.count
    }

    /// The groups and aggregates of a query's matches: SQL `GROUP BY` when SQL filters exactly.
    @_spi(StorageEngine) public func aggregate<Connection: SQLConnection>(
        _ specification: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty], on connection: Connection
    ) async throws -> [[String: Value]] {
        guard let context = try await queryContext(specification, on: connection) else { return try aggregatedInSwift([], groupBy: groupBy, aggregates: aggregates) }
        if try HierarchyQuery(specification, catalog: context.catalog) != nil {
            // Over the hierarchy: the merged matches, aggregated in Swift; a key through a
            // relationship is walked by the store (the records read lack the walked values).
            if let walked = (groupBy + aggregates.map(\.key)).first(where: { $0.contains(".") }) {
                throw RecordStoreError.relationshipWalkNotPlanned(String(walked.prefix { $0 != "." }), recordType: specification.recordType)
            }
            return try await aggregatedInSwift(records(specification.allMatches, on: connection), groupBy: groupBy, aggregates: aggregates)
        }
        let prepared = try await prepare(specification, context: context, on: connection)
        guard prepared.plan.residual == nil else {
            // The rows read lack the walked values: a key that walks is refused (and walked in Swift).
            for key in groupBy + aggregates.map(\.key) { _ = try prepared.walkedValue(key) }
            return try await aggregatedInSwift(records(specification.allMatches, on: connection), groupBy: groupBy, aggregates: aggregates)
        }
        return try await aggregate(prepared, groupBy: groupBy, aggregates: aggregates, on: connection)
    }

    /// The groups and aggregates of a prepared query whose SQL filters exactly (no residual), in one statement.
    @_spi(StorageEngine) public func aggregate<Connection: SQLConnection>(
        _ prepared: PreparedQuery, groupBy: [String], aggregates: [AggregateProperty], on connection: Connection
    ) async throws -> [[String: Value]] {
        let aggregate = try AggregateStatement(prepared, groupBy: groupBy, aggregates: aggregates, dialect: dialect)
        var rows: [[String: Value]] = []
        try await connection.stoppingStatements(of: prepared) {
            try await connection.forEachRow(aggregate.statement) { row in
                rows.append(aggregate.dictionary(from: row))
                return true
            }
        }
        return rows
    }
}

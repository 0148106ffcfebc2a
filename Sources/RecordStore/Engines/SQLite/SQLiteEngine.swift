import Foundation
import GRDB
import PredicateLanguage

/// The SQLite engine: a GRDB `DatabasePool` in WAL mode (readers run during writes),
/// a table per record type, and queries planned into SQL plus a residual predicate.
final class SQLiteEngine: StorageEngine {
    let name = "sqlite"
    private let pool: DatabasePool
    private let registry: ComparisonTestRegistry
    private let storage = SQLiteSchemaStorage()
    private let dialect = SQLiteDialect()
    /// The store's identity and cursor key, read from (or first written to) the `$metadata` table.
    let cursorSecret: CursorSecret
    /// The last catalog read, with the JSON text it came from.
    private let cachedCatalog = LockedState<(text: String, catalog: SchemaCatalog)>(("", SchemaCatalog()))

    /// Opens (creating when needed) the database file at `path`.
    init(path: String) throws(RecordStoreError) {
        let registry = ComparisonTestRegistry()
        self.registry = registry
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(in: db, registry: registry)
            // WAL with synchronous=NORMAL cannot corrupt the database; a power cut may lose the
            // last transactions, never part of one. A 32 MB page cache keeps the indexes of a
            // bulk import in memory.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let storage = self.storage
            cursorSecret = try pool.write { db in
                try storage.createBaseTables(db)
                return try SQLiteStoreSecret.load(db)
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// A thrown error as a store error.
    static func storeError(_ error: any Error) -> RecordStoreError {
        if let error = error as? RecordStoreError { return error }
        if let error = error as? FormatPredicateError { return .predicate(error) }
        if let error = error as? DatabaseError {
            if let evaluationError = SQLiteFunctions.evaluationError(in: error) { return .predicate(evaluationError) }
            return .storage(error.message ?? error.description)
        }
        return .storage(String(describing: error))
    }

    private func write<T>(_ body: (Database) throws -> T) throws(RecordStoreError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(RecordStoreError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The catalog stored in the database, decoded once per change.
    private func catalog(_ db: Database) throws -> SchemaCatalog {
        let text = try storage.catalogText(db)
        if let cached = cachedCatalog.withLock({ $0.text == text ? $0.catalog : nil }) { return cached }
        let catalog = try SQLiteSchemaStorage.decodeCatalog(text)
        cachedCatalog.withLock { $0 = (text, catalog) }
        return catalog
    }

    private func zoneExists(_ zone: ZoneID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM \(dialect.quote(TableLayout.zonesTable)) WHERE name = ?", arguments: [zone.zoneName]) ?? false
    }

    // MARK: Records

    func save(_ records: [Record], mode: SchemaMode) throws(RecordStoreError) -> [Record] {
        try modify(saving: records, deleting: [], expectedChangeTags: [:], mode: mode)
    }

    func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String], mode: SchemaMode
    ) throws(RecordStoreError) -> [Record] {
        try SaveRules.checkDuplicates(records)
        return try write { db in
            var catalog = try self.catalog(db)
            var admitted = records
            let changes = try catalog.admit(&admitted, mode: mode)
            if !changes.isEmpty {
                try storage.apply(changes, catalog: catalog, db)
                try storage.saveCatalog(catalog, db)
            }
            let writer = SQLiteRecordWriter(db: db, catalog: catalog)
            var knownZones: Set<ZoneID> = [.default]
            let now = Date()
            var saved: [Record] = []
            saved.reserveCapacity(admitted.count)
            for record in admitted {
                let zone = record.recordID.zoneID
                if !knownZones.contains(zone) {
                    guard try zoneExists(zone, db) else { throw RecordStoreError.zoneNotFound(zone) }
                    knownZones.insert(zone)
                }
                let stored = try writer.storedVersion(of: record.recordID)
                try SaveRules.checkConflict(record, stored: stored?.0)
                let stamped = SaveRules.stamped(record, stored: stored?.0, now: now)
                if let stored, stored.0.recordType != record.recordType {
                    try writer.delete(record.recordID, version: stored.0, rowID: stored.rowID)
                    try writer.write(stamped, replacing: nil)
                } else {
                    try writer.write(stamped, replacing: stored?.rowID)
                }
                saved.append(stamped)
            }
            for id in ids {
                let stored = try writer.storedVersion(of: id)
                try SaveRules.checkDeletion(id, expected: expectedChangeTags[id], stored: stored?.0.changeTag, exists: stored != nil)
                if let (version, rowID) = stored {
                    try writer.delete(id, version: version, rowID: rowID)
                }
            }
            return saved
        }
    }

    func delete(_ ids: [RecordID]) throws(RecordStoreError) {
        try write { db in
            let writer = SQLiteRecordWriter(db: db, catalog: try self.catalog(db))
            for id in ids {
                if let (version, rowID) = try writer.storedVersion(of: id) {
                    try writer.delete(id, version: version, rowID: rowID)
                }
            }
        }
    }

    func record(for id: RecordID) throws(RecordStoreError) -> Record? {
        try read { db in
            guard let recordType = try String.fetchOne(
                db, sql: "SELECT recordType FROM \(dialect.quote(TableLayout.registryTable)) WHERE zone = ? AND recordName = ?",
                arguments: [id.zoneID.zoneName, id.recordName]),
                  let schema = try self.catalog(db).recordTypes[recordType] else { return nil }
            let reader = SQLiteRecordReader(db: db, schema: schema, zone: id.zoneID)
            let sql = "SELECT \(reader.selection) FROM \(dialect.quote(recordType)) AS t WHERE t.\(dialect.quote(TableLayout.zoneColumn)) = ? AND t.\(dialect.quote(TableLayout.recordNameColumn)) = ?"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [id.zoneID.zoneName, id.recordName]) else { return nil }
            return try reader.record(from: row)
        }
    }

    /// Gathers index statistics (`ANALYZE`, sampling at most 1,000 rows per index) so
    /// SQLite's planner picks the selective index rather than the one that avoids a sort.
    func optimize() throws(RecordStoreError) {
        try write { db in
            try db.execute(sql: "PRAGMA analysis_limit = 1000")
            try db.execute(sql: "ANALYZE")
        }
    }

    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record] {
        try read { db in
            var found: [RecordID: Record] = [:]
            let catalog = try self.catalog(db)
            for id in ids {
                guard let recordType = try String.fetchOne(
                    db, sql: "SELECT recordType FROM \(dialect.quote(TableLayout.registryTable)) WHERE zone = ? AND recordName = ?",
                    arguments: [id.zoneID.zoneName, id.recordName]),
                      let schema = catalog.recordTypes[recordType] else { continue }
                let reader = SQLiteRecordReader(db: db, schema: schema, zone: id.zoneID)
                let sql = "SELECT \(reader.selection) FROM \(dialect.quote(recordType)) AS t WHERE t.\(dialect.quote(TableLayout.zoneColumn)) = ? AND t.\(dialect.quote(TableLayout.recordNameColumn)) = ?"
                if let row = try Row.fetchOne(db, sql: sql, arguments: [id.zoneID.zoneName, id.recordName]) {
                    found[id] = try reader.record(from: row)
                }
            }
            return found
        }
    }

    // MARK: Zones

    func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO \(dialect.quote(TableLayout.zonesTable)) (name) VALUES (?)", arguments: [zone.zoneName])
        }
    }

    func zones() throws(RecordStoreError) -> [ZoneID] {
        try read { db in
            let names = try String.fetchAll(db, sql: "SELECT name FROM \(dialect.quote(TableLayout.zonesTable)) ORDER BY name")
            return [ZoneID.default] + names.filter { $0 != ZoneID.default.zoneName }.map(ZoneID.init(zoneName:))
        }
    }

    func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        try write { db in
            guard try zoneExists(zone, db) else { throw RecordStoreError.zoneNotFound(zone) }
            try SQLiteRecordWriter(db: db, catalog: try self.catalog(db)).deleteZone(zone)
        }
    }

    // MARK: Schema

    func catalog() throws(RecordStoreError) -> SchemaCatalog {
        try read { db in try self.catalog(db) }
    }

    func define(_ schema: RecordTypeSchema) throws(RecordStoreError) {
        try write { db in
            var catalog = try self.catalog(db)
            let before = catalog.recordTypes[schema.name]?.searchableFieldNames
            let changes = try catalog.define(schema)
            try storage.apply(changes, catalog: catalog, db)
            if let updated = catalog.recordTypes[schema.name] {
                try storage.ensureIndexes(updated, db)
                if before != nil, before != updated.searchableFieldNames {
                    try SQLiteRecordWriter(db: db, catalog: catalog).rebuildFullText(updated)
                }
            }
            try storage.saveCatalog(catalog, db)
        }
    }

    // MARK: Queries

    /// The plan and the statement for a query, or nil when the type has no table yet.
    private func prepare(_ specification: QuerySpecification, _ db: Database) throws -> (SQLQueryPlan, RecordTypeSchema)? {
        guard try zoneExists(specification.zone, db) else { throw RecordStoreError.zoneNotFound(specification.zone) }
        guard let schema = try catalog(db).recordTypes[specification.recordType] else { return nil }
        let planner = QueryPlanner(dialect: dialect, schema: schema, registry: registry, recordType: specification.recordType)
        let plan = try planner.plan(specification)
        guard plan.residual != specification.predicate, try !sqlRunsFaithfully(plan, recordType: specification.recordType, db) else {
            return (plan, schema)
        }
        // SQL scans the zone in order; the whole predicate is evaluated on each record.
        var scan = specification
        scan.predicate = .truePredicate
        var fallback = try planner.plan(scan)
        fallback.residual = specification.predicate
        return (fallback, schema)
    }

    /// Whether SQLite can run a plan's condition as planned. It cannot when a text argument
    /// holds a NUL character (the binding would cut the text there), nor when the condition
    /// nests too deeply or is too large for SQLite's parser ("parser stack overflow",
    /// "Expression tree is too large"): such plans are checked by compiling the condition.
    private func sqlRunsFaithfully(_ plan: SQLQueryPlan, recordType: String, _ db: Database) throws -> Bool {
        for argument in plan.whereArguments {
            if case .text(let text) = argument, NulCharacter.isIn(text) { return false }
        }
        let nesting = plan.whereClause.utf8.reduce(0) { $1 == UInt8(ascii: "(") ? $0 + 1 : $0 }
        guard nesting > 40 || plan.whereClause.utf8.count > 20_000 else { return true }
        do {
            _ = try db.makeStatement(sql: dialect.numberPlaceholders("SELECT 1 FROM \(dialect.quote(recordType)) AS t WHERE \(plan.whereClause)"))
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            let message = error.message ?? ""
            if message.contains("parser stack overflow") || message.contains("Expression tree is too large") || message.contains("too many SQL variables") {
                return false
            }
            throw error
        }
    }

    private func compileResidual(_ residual: FormatPredicate?) throws -> CompiledPredicate? {
        guard let residual else { return nil }
        do {
            return try CompiledPredicate(residual)
        } catch {
            throw MemoryEngine.predicateError(error)
        }
    }

    /// `SELECT … WHERE … ORDER BY … [LIMIT ? OFFSET ?]`: limit and offset go to SQL when SQL
    /// filters exactly; with a residual, rows stream until enough matches are found.
    private func selectStatement(
        _ specification: QuerySpecification, plan: SQLQueryPlan, reader: SQLiteRecordReader, segment: SQLCondition? = nil
    ) -> (String, [SQLArgument]) {
        var whereClause = plan.whereClause
        var whereArguments = plan.whereArguments
        if let segment, let condition = segment.sql {
            whereClause += " AND \(condition)"
            whereArguments += segment.arguments
        }
        var sql = "SELECT \(reader.selection) FROM \(dialect.quote(specification.recordType)) AS t WHERE \(whereClause) ORDER BY \(plan.orderBy)"
        var arguments = whereArguments + plan.orderArguments
        if plan.residual == nil, specification.limit != nil || specification.offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments.append(.integer(Int64(specification.limit.map { max(0, $0) } ?? -1)))
            arguments.append(.integer(Int64(max(0, specification.offset))))
        }
        return (sql, arguments)
    }

    func records(_ specification: QuerySpecification) throws(RecordStoreError) -> [Record] {
        try read { db in
            guard let (plan, schema) = try prepare(specification, db) else { return [] }
            let reader = SQLiteRecordReader(db: db, schema: schema, zone: specification.zone)
            let residual = try compileResidual(plan.residual)
            let searchable = schema.searchableFieldNames
            var results: [Record] = []
            if let limit = specification.limit, limit <= 0 { return results }
            var skip = residual == nil ? 0 : max(0, specification.offset)
            let segments: [SQLCondition?] = plan.keysetSegments.isEmpty ? [nil] : plan.keysetSegments
            for segment in segments {
                var remaining = specification
                if let limit = specification.limit {
                    guard results.count < limit else { break }
                    remaining.limit = limit - results.count
                }
                let (sql, arguments) = selectStatement(remaining, plan: plan, reader: reader, segment: segment)
                let rows = try Row.fetchCursor(db, sql: dialect.numberPlaceholders(sql), arguments: SQLiteValueCoding.statementArguments(arguments))
                while let row = try rows.next() {
                    let record = try reader.record(from: row)
                    if let residual {
                        guard try residual.evaluate(RecordObject(record: record, searchableFields: searchable)) else { continue }
                    }
                    if skip > 0 {
                        skip -= 1
                        continue
                    }
                    results.append(record)
                    if let limit = specification.limit, results.count >= limit { break }
                }
            }
            return results
        }
    }

    func count(_ specification: QuerySpecification) throws(RecordStoreError) -> Int {
        try read { db in
            guard let (plan, schema) = try prepare(specification, db) else { return 0 }
            let from = "FROM \(dialect.quote(specification.recordType)) AS t WHERE \(plan.whereClause)"
            let arguments = SQLiteValueCoding.statementArguments(plan.whereArguments)
            guard let residual = try compileResidual(plan.residual) else {
                return try Int.fetchOne(db, sql: dialect.numberPlaceholders("SELECT count(*) \(from)"), arguments: arguments) ?? 0
            }
            let reader = SQLiteRecordReader(db: db, schema: schema, zone: specification.zone)
            let rows = try Row.fetchCursor(db, sql: dialect.numberPlaceholders("SELECT \(reader.selection) \(from)"), arguments: arguments)
            var count = 0
            while let row = try rows.next() {
                if try residual.evaluate(RecordObject(record: try reader.record(from: row), searchableFields: schema.searchableFieldNames)) {
                    count += 1
                }
            }
            return count
        }
    }

    /// `SELECT groups, aggregates … GROUP BY groups` when SQL filters exactly; otherwise the
    /// matching records are grouped in Swift, as the memory engine does.
    func aggregate(_ specification: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]] {
        let fallback = try read { db -> Bool in
            guard let (plan, _) = try prepare(specification, db) else { return false }
            return plan.residual != nil
        }
        if fallback {
            return try Aggregation(groupBy: groupBy, aggregates: aggregates).rows(records(specification))
        }
        return try read { db in
            guard let (plan, schema) = try prepare(specification, db) else {
                return try Aggregation(groupBy: groupBy, aggregates: aggregates).rows([Record]())
            }
            func columnAndType(_ key: String) -> (String, FieldType)? {
                if let metadata = MetadataField(rawValue: key) {
                    return ("t.\(dialect.quote(TableLayout.column(metadata)))", metadata.fieldType)
                }
                guard let field = schema.field(named: key) else { return nil }
                return ("t.\(dialect.quote(field.name))", field.type)
            }
            var selections: [String] = []
            var groupTerms: [String] = []
            var decoders: [(name: String, type: FieldType?)] = []
            for key in groupBy {
                let (expression, type) = columnAndType(key) ?? ("NULL", .string)
                selections.append(expression)
                groupTerms.append(expression)
                decoders.append((key, type))
            }
            for aggregate in aggregates {
                let (expression, type) = columnAndType(aggregate.key) ?? ("NULL", .string)
                switch aggregate.function {
                case .count: selections.append("COUNT(\(expression))"); decoders.append((aggregate.name, nil))
                case .sum: selections.append("SUM(\(expression))"); decoders.append((aggregate.name, nil))
                case .average: selections.append("AVG(\(expression))"); decoders.append((aggregate.name, nil))
                case .min: selections.append("MIN(\(expression))"); decoders.append((aggregate.name, type))
                case .max: selections.append("MAX(\(expression))"); decoders.append((aggregate.name, type))
                }
            }
            var sql = "SELECT \(selections.joined(separator: ", ")) FROM \(dialect.quote(specification.recordType)) AS t WHERE \(plan.whereClause)"
            if !groupTerms.isEmpty { sql += " GROUP BY \(groupTerms.joined(separator: ", "))" }
            let rows = try Row.fetchAll(db, sql: dialect.numberPlaceholders(sql), arguments: SQLiteValueCoding.statementArguments(plan.whereArguments))
            return rows.map { row -> [String: Value] in
                var result: [String: Value] = [:]
                for (index, decoder) in decoders.enumerated() {
                    let stored: DatabaseValue = row[index]
                    let value: Value
                    if let type = decoder.type {
                        value = SQLiteValueCoding.decode(stored, as: type)
                    } else {
                        switch stored.storage {
                        case .int64(let integer): value = .int(integer)
                        case .double(let double): value = .double(double)
                        default: value = .null
                        }
                    }
                    if !value.isNull { result[decoder.name] = value }
                }
                return result
            }
        }
    }

    func explain(_ specification: QuerySpecification) throws(RecordStoreError) -> QueryPlan {
        try read { db in
            guard let (plan, schema) = try prepare(specification, db) else {
                return QueryPlan(engine: name, sql: "", arguments: [], residual: nil, indexesUsed: [],
                                 queryPlanDetails: ["record type '\(specification.recordType)' has no records: the result is empty"])
            }
            let reader = SQLiteRecordReader(db: db, schema: schema, zone: specification.zone)
            var (sql, arguments) = selectStatement(specification, plan: plan, reader: reader)
            sql = dialect.numberPlaceholders(sql)
            let details = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: SQLiteValueCoding.statementArguments(arguments))
                .map { row -> String in row["detail"] ?? "" }
            var indexes: [String] = []
            for detail in details {
                for marker in ["USING COVERING INDEX ", "USING INDEX "] {
                    if let range = detail.range(of: marker) {
                        let name = detail[range.upperBound...].prefix { $0 != " " }
                        if !indexes.contains(String(name)) { indexes.append(String(name)) }
                    }
                }
                if detail.contains("VIRTUAL TABLE INDEX"), let name = detail.split(separator: " ").dropFirst().first {
                    if !indexes.contains(String(name)) { indexes.append(String(name)) }
                }
            }
            return QueryPlan(
                engine: name, sql: sql, arguments: arguments.map(\.description),
                residual: plan.residual?.predicateFormat, indexesUsed: indexes, queryPlanDetails: details)
        }
    }
}

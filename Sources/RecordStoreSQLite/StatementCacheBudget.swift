import GRDB
import PredicateLanguage

/// Keeps each SQLite connection's cache of prepared query statements bounded.
///
/// Parsing and preparing a query's SQL is about a quarter of a small query's time (an indexed
/// equality returning 21 cities: SQLite's parser, name resolution and GRDB's authorizer), so
/// queries reuse their prepared statements through GRDB's cache of each connection
/// (`Database.cachedStatement(sql:)`). Their texts vary with their arguments (`IN` lists of any
/// length, keyset segments of cursors), so that cache, which never evicts, would grow without
/// end. This budget counts the different texts each connection has cached; the text that would
/// go past ``limit`` empties the connection's caches (`clearSchemaCache()`) and starts the count
/// again.
///
/// ```swift
/// let statement = try StatementCacheBudget.shared.statement(sql, in: db)
/// let rows = try Row.fetchCursor(statement, arguments: arguments)
/// ```
///
/// Connections are told apart by their object identity. A connection that closed and a new one
/// at the same address share a count, which only empties the new one's cache earlier. The whole
/// table is forgotten once it tracks ``connectionLimit`` connections; a connection's cache may
/// then hold up to twice ``limit`` texts before the count catches up.
final class StatementCacheBudget: Sendable {
    /// The process's budget, shared by every SQLite store.
    static let shared = StatementCacheBudget()

    /// How many different statement texts a connection keeps prepared at most.
    let limit: Int
    /// How many connections the budget tracks before it forgets them all.
    let connectionLimit: Int
    private let cachedTexts = LockedState<[ObjectIdentifier: Set<String>]>([:])

    init(limit: Int = 256, connectionLimit: Int = 256) {
        self.limit = limit
        self.connectionLimit = connectionLimit
    }

    /// The prepared statement for `sql` on `db`, from its cache when it is there.
    ///
    /// Must be called on `db`'s queue, as every use of `db` is; a statement it returns is used
    /// by one cursor at a time (GRDB resets it when the cursor ends).
    func statement(_ sql: String, in db: Database) throws -> Statement {
        let connection = ObjectIdentifier(db)
        let mustEmpty = cachedTexts.withLock { table -> Bool in
            if table[connection]?.contains(sql) == true { return false }
            if table[connection] == nil && table.count >= connectionLimit { table.removeAll() }
            // Changed in place: a copy of the set would cost a copy of every text per new one.
            let full = (table[connection]?.count ?? 0) >= limit
            if full { table[connection]?.removeAll() }
            table[connection, default: []].insert(sql)
            return full
        }
        if mustEmpty { db.clearSchemaCache() }
        return try db.cachedStatement(sql: sql)
    }
}

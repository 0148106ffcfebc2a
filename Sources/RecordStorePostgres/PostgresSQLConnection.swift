// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// One row PostgreSQL returned, converted to ``SQLValue``s by column type: booleans and
/// integers as integers, floating point as reals, `numeric` (what `SUM` and `AVG` of integers
/// return) as an integer when whole and in range, text as text, `bytea` as bytes.
struct PostgresSQLRow: SQLRow {
    let values: [SQLValue]

    func value(at index: Int) -> SQLValue {
        index < values.count ? values[index] : .null
    }

    init(_ row: PostgresRow) throws {
        var values: [SQLValue] = []
        values.reserveCapacity(row.count)
        for cell in row {
            values.append(try Self.value(of: cell))
        }
        self.values = values
    }

    static func value(of cell: PostgresCell) throws -> SQLValue {
        guard let bytes = cell.bytes else { return .null }
        if cell.format == .binary, let value = binaryValue(bytes, type: cell.dataType) { return value }
        switch cell.dataType {
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric:
            let decimal = try cell.decode(Decimal.self)
            let text = "\(decimal)"
            if !text.contains("."), let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? NSDecimalNumber(decimal: decimal).doubleValue)
        case .bytea: return .blob(try cell.decode(Data.self))
        default: return .text(try cell.decode(String.self))
        }
    }

    /// The common column types read straight from their binary form (every query row comes in
    /// binary): a fast path past PostgresNIO's generic decoding, which the hot loop of a query
    /// would otherwise pay for on every cell. Nil for any other type or an unexpected size.
    private static func binaryValue(_ bytes: ByteBuffer, type: PostgresDataType) -> SQLValue? {
        var bytes = bytes
        let size = bytes.readableBytes
        switch type {
        case .text, .varchar, .name:
            return .text(bytes.readString(length: size) ?? "")
        case .int8 where size == 8:
            return bytes.readInteger(as: Int64.self).map(SQLValue.integer)
        case .int4 where size == 4:
            return bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) }
        case .int2 where size == 2:
            return bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) }
        case .float8 where size == 8:
            return bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) }
        case .bool where size == 1:
            return bytes.readInteger(as: UInt8.self).map { .integer($0 == 0 ? 0 : 1) }
        case .bytea:
            return .blob(Data(bytes.readableBytesView))
        default:
            return nil
        }
    }
}

/// The shared SQL code's connection (``SQLConnection``) over one leased PostgresNIO
/// connection, inside a transaction the engine opened.
///
/// ```swift
/// try await client.withConnection { connection in
///     try await executor.records(query, on: PostgresSQLConnection(connection, logger: logger))
/// }
/// ```
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection
    let logger: Logger
    /// The server's `host:port/database`, which each statement's span names
    /// (`server.address`), so that a trace shows whether the primary or a replica answered.
    let server: String?

    init(_ connection: PostgresConnection, logger: Logger, server: String? = nil) {
        self.connection = connection
        self.logger = logger
        self.server = server
    }

    /// The statement as PostgresNIO sends it: its text and typed bindings.
    static func query(_ statement: SQLStatement) -> PostgresQuery {
        PostgresQuery(statement)
    }

    /// Runs a statement to its end: its rows are read and dropped, so that an error PostgreSQL
    /// sends after the first row (a deadlock while `SELECT pg_advisory_xact_lock(...)` waits)
    /// is thrown here, not lost with the unread rows.
    func execute(_ statement: SQLStatement) async throws {
        try await StoreTracing.statement(statement.sql, system: "postgresql", server: server) {
            let rows = try await connection.query(Self.query(statement), logger: logger)
            for try await _ in rows {}
        }
    }

    func forEachRow(_ statement: SQLStatement, _ body: (PostgresSQLRow) throws -> Bool) async throws {
        try await StoreTracing.statement(statement.sql, system: "postgresql", server: server) {
            let rows = try await connection.query(Self.query(statement), logger: logger)
            for try await row in rows {
                guard try body(PostgresSQLRow(row)) else { break }
            }
        }
    }

    /// How many rows a statement returned (`... RETURNING 1` counts the rows it changed).
    func rowCount(_ statement: SQLStatement) async throws -> Int {
        var count = 0
        try await forEachRow(statement) { _ in
            count += 1
            return true
        }
        return count
    }

    /// Runs the check statement with no rows wanted, under a savepoint so that a refusal does
    /// not abort the transaction around it: false when PostgreSQL finds it too deep or too
    /// large (stack depth, statement too complex, too many parameters).
    func canPrepare(_ statement: SQLStatement) async throws -> Bool {
        guard statement.arguments.count <= Int(UInt16.max) else { return false }
        try await connection.query("SAVEPOINT query_prepare_check", logger: logger)
        do {
            try await execute(SQLStatement(sql: statement.sql + " LIMIT 0", arguments: statement.arguments))
            try await connection.query("RELEASE SAVEPOINT query_prepare_check", logger: logger)
            return true
        } catch let error as PSQLError where PostgresErrorMapping.isTooComplex(error) {
            try await connection.query("ROLLBACK TO SAVEPOINT query_prepare_check", logger: logger)
            return false
        }
    }
}

extension PostgresQuery {
    /// A statement as PostgresNIO sends it: its text, and its values bound as `bigint`,
    /// `double precision`, `text` or `bytea` (null untyped, for the server to infer).
    package init(_ statement: SQLStatement) {
        var bindings = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .real(let double): bindings.append(double)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        self.init(unsafeSQL: statement.sql, binds: bindings)
    }
}
#endif

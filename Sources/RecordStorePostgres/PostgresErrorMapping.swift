// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import PostgresNIO
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Why a write transaction must run again from its start: another transaction changed what
/// this one read (a record written or created meanwhile, the schema changed, a serialization
/// failure or deadlock PostgreSQL reported). The save's rules then decide again on what is
/// stored now: a stale change tag becomes ``RecordStoreError/conflict(_:expected:found:)``.
struct PostgresWriteRace: Error {
    let reason: String
}

/// PostgreSQL's and PostgresNIO's errors as ``RecordStoreError``s.
enum PostgresErrorMapping {
    /// The SQLSTATE of a server error.
    static func sqlState(_ error: PSQLError) -> String? {
        error.serverInfo?[.sqlState]
    }

    /// Whether PostgreSQL refused a statement for its size or depth.
    static func isTooComplex(_ error: PSQLError) -> Bool {
        if error.code == .tooManyParameters { return true }
        guard let state = sqlState(error) else { return false }
        // 54001 statement_too_complex (also "stack depth limit exceeded"), 54000 program_limit_exceeded.
        return state == "54001" || state == "54000"
    }

    /// Whether the error means the transaction lost a race and should run again.
    static func isRace(_ error: any Error) -> Bool {
        if error is PostgresWriteRace { return true }
        guard let error = error as? PSQLError, let state = sqlState(error) else { return false }
        // unique_violation, serialization_failure, deadlock_detected.
        return state == "23505" || state == "40001" || state == "40P01"
    }

    /// Whether a standby cancelled a read because replaying the primary's changes needed what
    /// it held (a lock, a row version, a buffer): "canceling statement due to conflict with
    /// recovery", SQLSTATE 40001 serialization_failure or 40P01 deadlock_detected. A read-only
    /// transaction on a standby fails with these for no other reason.
    static func isRecoveryConflict(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = sqlState(error) else { return false }
        return state == "40001" || state == "40P01"
    }

    /// Whether the server refused a write because it takes none (SQLSTATE 25006,
    /// read_only_sql_transaction): it is a standby.
    static func isReadOnlyRefusal(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return sqlState(error) == "25006"
    }

    /// Whether a lock was not granted within the transaction's `lock_timeout` (SQLSTATE 55P03,
    /// lock_not_available).
    static func isLockTimeout(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return sqlState(error) == "55P03"
    }

    /// Whether a query planned against a kept catalog failed its check (``PostgresCatalogCache``),
    /// or named a column or table that is gone (undefined_column 42703, undefined_table 42P01):
    /// PostgreSQL resolves names before the check runs, and a schema migration renames and drops
    /// them. The query then runs again against the catalog read anew.
    static func isStaleCatalog(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = sqlState(error) else { return false }
        return state == PostgresCatalogCache.staleState || state == "42703" || state == "42P01"
    }

    /// A thrown error as a store error; `server` names the server in connection errors.
    static func storeError(_ error: any Error, server: String) -> RecordStoreError {
        if let error = error as? RecordStoreError { return error }
        if let error = error as? FormatPredicateError { return .predicate(error) }
        if error is CancellationError { return .cancelled }
        if let race = error as? PostgresWriteRace { return .storage("a write kept losing races with other writers: \(race.reason)") }
        if let error = error as? PSQLError { return storeError(error, server: server) }
        if let error = error as? PostgresDecodingError {
            return .storage("a value PostgreSQL returned could not be read: column '\(error.columnName)' of type \(error.postgresType)")
        }
        return .storage(String(describing: error))
    }

    private static func storeError(_ error: PSQLError, server: String) -> RecordStoreError {
        let message = error.serverInfo?[.message]
        if let message, let refusal = RelationshipWalkRefusal.error(in: message) { return refusal }
        if let state = sqlState(error) {
            switch state {
            case "28P01", "28000":
                return .serverUnavailable(server: server, reason: "the server refused the user name or password (\(message ?? state))")
            case "3D000":
                return .serverUnavailable(server: server, reason: "the database does not exist (\(message ?? state))")
            case "57P01", "57P02", "57P03":
                return .serverUnavailable(server: server, reason: "the server is shutting down or starting up (\(message ?? state))")
            case "25006":
                return .serverUnavailable(server: server, reason: "the server is a standby, read-only: the primary has moved (\(message ?? state))")
            case "53300":
                return .serverUnavailable(server: server, reason: "the server has no free connection (\(message ?? state))")
            case "57014":
                return .cancelled
            default:
                if state.hasPrefix("08") {
                    return .serverUnavailable(server: server, reason: "the connection failed (\(message ?? state))")
                }
                return .storage("PostgreSQL refused a statement: \(message ?? "error") (SQLSTATE \(state))")
            }
        }
        switch error.code {
        case .connectionError:
            return .serverUnavailable(server: server, reason: "cannot connect (\(error.underlying.map { String(describing: $0) } ?? "connection error"))")
        case .serverClosedConnection, .uncleanShutdown:
            return .serverUnavailable(server: server, reason: "the server closed the connection; nothing of the interrupted call was committed unless it had finished")
        case .clientClosedConnection, .poolClosed:
            return .serverUnavailable(server: server, reason: "the store's connections are closed")
        case .queryCancelled:
            return .cancelled
        case .sslUnsupported:
            return .serverUnavailable(server: server, reason: "the server does not support TLS, which sslmode=require asks for")
        case .authMechanismRequiresPassword:
            return .serverUnavailable(server: server, reason: "the server asks for a password and the URL has none")
        case .unsupportedAuthMechanism, .saslError:
            return .serverUnavailable(server: server, reason: "authentication failed (\(error.underlying.map { String(describing: $0) } ?? "\(error.code)"))")
        default:
            return .storage("PostgreSQL: \(error.code)\(error.underlying.map { " (\($0))" } ?? "")")
        }
    }
}
#endif

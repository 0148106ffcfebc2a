import Foundation
import GRDB
import GRDBSQLite
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// `query_test(number, typeCode, value)`: the evaluator's comparison number `number` of the
/// ``ComparisonTestRegistry`` on a stored value read as the type of `typeCode`
/// (``StoredValueEncoding/fieldType(code:)``), 1 or 0.
///
/// A scan calls it once per row, or once per list member (``SQLDialect/jsonArrayMembers(_:elementType:)``:
/// a million calls over cities1000's `alternatenames`), so it is registered through SQLite's C
/// interface rather than GRDB's `DatabaseFunction`, which boxes every argument in an array of
/// `DatabaseValue`s: the comparison is looked up once per statement and kept as SQLite's
/// auxiliary data of its constant first argument (`sqlite3_set_auxdata`), and a text argument
/// becomes a `String` straight from its bytes, all of them (GRDB's `String(cString:)` stopped
/// at a NUL character).
///
/// ```swift
/// try SQLiteComparisonTest.register(in: db, registry: registry)
/// // SELECT ... WHERE query_test(?, 1, COALESCE(t."name$raw", t."name"))
/// ```
enum SQLiteComparisonTest {
    /// Registers `query_test` on the connection; the connection keeps the registry until it closes.
    static func register(in db: Database, registry: ComparisonTestRegistry) throws {
        guard let connection = db.sqliteConnection else { return }
        let registryPointer = Unmanaged.passRetained(registry).toOpaque()
        let code = sqlite3_create_function_v2(
            connection, "query_test", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, registryPointer,
            { context, count, arguments in SQLiteComparisonTest.call(context, count, arguments) },
            nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<ComparisonTestRegistry>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "query_test could not be registered")
        }
    }

    /// The compiled comparison SQLite keeps beside a statement's constant first argument.
    private final class CachedComparison {
        /// The comparison's number in the registry.
        let number: Int64
        let compiled: CompiledPredicate
        init(number: Int64, _ compiled: CompiledPredicate) {
            self.number = number
            self.compiled = compiled
        }
    }

    /// One call: the comparison (from the statement's auxiliary data, or the registry), the
    /// value decoded, the evaluator's answer; a SQLite error with the evaluation's message
    /// (``SQLiteFunctions/evaluationErrorMarker``) when it raises.
    private static func call(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let context else { return }
        guard count == 3, let arguments, let numberArgument = arguments[0], let codeArgument = arguments[1], let valueArgument = arguments[2],
              sqlite3_value_type(numberArgument) == SQLITE_INTEGER, sqlite3_value_type(codeArgument) == SQLITE_INTEGER,
              let type = StoredValueEncoding.fieldType(code: Int(sqlite3_value_int64(codeArgument))),
              let userData = sqlite3_user_data(context) else {
            sqlite3_result_error(context, "query_test called with bad arguments", -1)
            return
        }
        let number = sqlite3_value_int64(numberArgument)
        let cached = sqlite3_get_auxdata(context, 0).map { Unmanaged<CachedComparison>.fromOpaque($0).takeUnretainedValue() }
        // Kept for this number only (the data of a statement run again with another number is not read).
        let comparison: CachedComparison
        if let cached, cached.number == number {
            comparison = cached
        } else {
            let registry = Unmanaged<ComparisonTestRegistry>.fromOpaque(userData).takeUnretainedValue()
            guard let compiled = registry.comparison(number) else {
                sqlite3_result_error(context, "unknown comparison \(number) in query_test", -1)
                return
            }
            comparison = CachedComparison(number: number, compiled)
        }
        do {
            // Through the class's constant: the compiled closures are borrowed, not copied per call.
            let answer = try comparison.compiled.evaluate(value: StoredValueEncoding.decode(storedValue(valueArgument), as: type))
            sqlite3_result_int(context, answer ? 1 : 0)
        } catch {
            // SQLite carries only a message: the marker lets the engine give back the typed error.
            sqlite3_result_error(context, SQLiteFunctions.evaluationErrorMarker + error.description, -1)
        }
        if comparison !== cached {
            // Last: SQLite may release the data at once (it is not read after this).
            sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(comparison).toOpaque()) { pointer in
                guard let pointer else { return }
                Unmanaged<CachedComparison>.fromOpaque(pointer).release()
            }
        }
    }

    /// A function argument as a shared value; text from all its bytes (a NUL character included).
    private static func storedValue(_ value: OpaquePointer) -> SQLValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // The text first, then its length in bytes, as SQLite asks.
            guard let text = sqlite3_value_text(value) else { return .text("") }
            let length = Int(sqlite3_value_bytes(value))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(value))))
        default:
            return .null
        }
    }
}

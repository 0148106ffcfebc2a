import Tracing

/// The spans a store makes through swift-distributed-tracing: one per operation (`store.query`,
/// `store.save`, … as ``StoreMetrics/Operation`` names them) and, inside it, one per SQL statement
/// an engine runs (named by its first word, `SELECT`, with `db.query.text` holding the statement
/// with its placeholders, never its values).
///
/// A store traces to the tracer `InstrumentationSystem.bootstrap` installed, unless it is given
/// one of its own (``Store/traceOperations(with:)``). While neither is set, the store makes no
/// span at all: the check is one read per operation.
///
/// ```swift
/// InstrumentationSystem.bootstrap(myTracer)        // once per process: every store traces to it
/// store.traceOperations(with: otherTracer)         // or one store to its own
/// ```
public enum StoreTracing {
    /// The tracer of the operation the current task runs, nil while it is not traced: set by the
    /// store around each operation, and read by an engine for the spans of its statements.
    @TaskLocal @_spi(StorageEngine) public static var current: (any Tracer)?

    /// What a task's tracing is now: its tracer and its span context, carried by hand to work that
    /// runs outside the task (a synchronous call's, a database queue's) with ``Captured/restore(_:)``.
    @_spi(StorageEngine) public struct Captured: Sendable {
        let tracer: (any Tracer)?
        let context: ServiceContext?

        /// Runs `body` with the captured tracer and span context bound, as the capturing task had them.
        @_spi(StorageEngine) public func restore<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
            guard let tracer else { return try body() }
            let outcome: Result<T, Failure> = StoreTracing.$current.withValue(tracer) {
                ServiceContext.withValue(context) {
                    do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
                }
            }
            return try outcome.get()
        }

        /// Runs `body` with the captured tracer and span context bound (async work).
        @_spi(StorageEngine) public func restore<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
            guard let tracer else { return try await body() }
            let outcome: Result<T, Failure> = await StoreTracing.$current.withValue(tracer) {
                await ServiceContext.withValue(context) {
                    do throws(Failure) { return .success(try await body()) } catch { return .failure(error) }
                }
            }
            return try outcome.get()
        }
    }

    /// The current task's tracing, to restore elsewhere.
    @_spi(StorageEngine) public static func capture() -> Captured {
        Captured(tracer: current, context: current == nil ? nil : ServiceContext.current)
    }

    /// Runs one SQL statement's work inside a span of its own when the operation is traced;
    /// runs it as it is otherwise. `system` is OpenTelemetry's `db.system.name` (`sqlite`, `postgresql`).
    @_spi(StorageEngine) public static func statement<T>(_ sql: String, system: String, _ body: () throws -> T) rethrows -> T {
        guard let span = startStatementSpan(sql, system: system) else { return try body() }
        defer { span.end() }
        do {
            return try body()
        } catch {
            span.recordError(error)
            throw error
        }
    }

    /// Runs one SQL statement's async work inside a span of its own when the operation is traced;
    /// `server` (`host:port/database`), when given, is the span's `server.address`.
    @_spi(StorageEngine) public static func statement<T>(
        _ sql: String, system: String, server: String? = nil, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let span = startStatementSpan(sql, system: system, server: server) else { return try await body() }
        defer { span.end() }
        do {
            return try await body()
        } catch {
            span.recordError(error)
            throw error
        }
    }

    /// A started span for one statement, a child of the current span; nil while not traced.
    private static func startStatementSpan(_ sql: String, system: String, server: String? = nil) -> (any Span)? {
        guard let tracer = current else { return nil }
        let span = tracer.startSpan(statementName(sql), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes["db.system.name"] = system
        span.attributes["db.query.text"] = sql
        if let server { span.attributes["server.address"] = server }
        return span
    }

    /// A statement's span name: its first word in capitals (`SELECT`, `INSERT`, `WITH`).
    static func statementName(_ sql: String) -> String {
        let word = sql.drop { $0.isWhitespace || $0 == "(" }.prefix { $0.isLetter }
        return word.isEmpty ? "SQL" : word.uppercased()
    }

    /// Runs a store operation inside a span named `store.OPERATION` on `tracer`, the span's
    /// context and the tracer bound for the engine's statement spans.
    static func operation<T, Failure: Error>(
        _ name: String, engine: String, tracer: any Tracer, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let span = tracer.startSpan("store." + name, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        span.attributes["db.system.name"] = engine
        defer { span.end() }
        let context = span.context
        let outcome: Result<T, Failure> = await StoreTracing.$current.withValue(tracer) {
            await ServiceContext.withValue(context) {
                do throws(Failure) { return .success(try await body()) } catch { return .failure(error) }
            }
        }
        if case .failure(let error) = outcome { span.recordError(error) }
        return try outcome.get()
    }
}

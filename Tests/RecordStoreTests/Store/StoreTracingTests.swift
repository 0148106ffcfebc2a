import EngineTestSupport
import Foundation
import InMemoryTracing
import PredicateLanguage
import RecordStore
import Testing
import Tracing

/// Each store operation is a span (`store.save`, `store.query`, `store.count`), and each SQL
/// statement an engine runs for it a span inside it, whether the operation is called with
/// `await` or from synchronous code (whose work runs in a task of its own, and on SQLite on a
/// database queue): the trace carries across both.
@Suite struct StoreTracingTests {
    static func city(_ name: String, population: Int64) -> Record {
        Record(recordType: "City", recordID: RecordID(recordName: name), fields: ["name": .string(name), "population": .int(population)])
    }

    /// The synchronous form of the count (a function of its own, so that the blocking overload is chosen).
    static func countSynchronously(_ store: Store) throws -> Int {
        try store.count(ofType: "City", matching: FormatPredicate(format: "population > 1000"))
    }

    @Test(arguments: TestEngine.allCases)
    func eachOperationIsASpanWithItsStatementsInside(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)
        _ = try await store.save([Self.city("Paris", population: 2_100_000), Self.city("Lyon", population: 500)])
        let found = try await store.records(ofType: "City", matching: FormatPredicate(format: "population > 1000"))
        #expect(found.map(\.recordID.recordName) == ["Paris"])
        #expect(try Self.countSynchronously(store) == 1)

        let spans = tracer.finishedSpans
        let operations = spans.filter { $0.operationName.hasPrefix("store.") }
        #expect(operations.map(\.operationName) == ["store.save", "store.query", "store.count"])
        for operation in operations {
            #expect(operation.attributes["db.system.name"]?.toSpanAttribute() == .string(engine.engineName))
            #expect(operation.parentSpanID == nil)
        }
        let statements = spans.filter { !$0.operationName.hasPrefix("store.") }
        guard engine != .memory else {
            #expect(statements.isEmpty, "the memory engine runs no SQL")
            return
        }
        // Every statement belongs to one of the operations, in its trace.
        for statement in statements {
            let parent = operations.first { $0.spanID == statement.parentSpanID }
            #expect(parent != nil, "\(statement.operationName) has no operation for a parent")
            #expect(parent?.traceID == statement.traceID)
            #expect(statement.kind == .client)
            guard case .string(let text)? = statement.attributes["db.query.text"]?.toSpanAttribute() else {
                Issue.record("\(statement.operationName) has no db.query.text")
                continue
            }
            #expect(text.uppercased().hasPrefix(statement.operationName) || text.uppercased().hasPrefix("(" + statement.operationName))
            #expect(!text.contains("Paris"), "a statement's text holds placeholders, never values")
        }
        // The query and the synchronous count each read with a SELECT of their own.
        for name in ["store.query", "store.count"] {
            let operation = try #require(operations.first { $0.operationName == name })
            #expect(statements.contains { $0.parentSpanID == operation.spanID && $0.operationName == "SELECT" }, "\(name) has no SELECT inside")
        }

        // Given no tracer again (and none bootstrapped), the store makes no span.
        store.traceOperations(with: nil)
        tracer.clearFinishedSpans()
        _ = try await store.records(ofType: "City", matching: FormatPredicate(format: "population > 1000"))
        #expect(tracer.finishedSpans.isEmpty)
    }
}

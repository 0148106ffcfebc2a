import Foundation
import Testing
import PredicateLanguage

/// One `CompiledPredicate` (and one `CompiledExpression`) shared by many tasks at once:
/// every task must see the same exact answers. Run under Thread Sanitizer by Scripts/tsan.sh.
@Suite("Hardening: concurrent evaluation")
struct ConcurrentEvaluationTests {
    /// 2,000 records: id 0..<2000, name "city-<id>" (every 7th "Ville-<id>"), population id * 10, tags.
    static let records: [Value] = (0..<2_000).map { id in
        let name = id % 7 == 0 ? "Ville-\(id)" : "city-\(id)"
        let tags: [Value] = id % 3 == 0 ? ["coast", "port"] : ["inland"]
        return .object([
            "id": .int(Int64(id)), "name": .string(name), "population": .int(Int64(id * 10)), "tags": .list(tags),
        ])
    }

    /// Runs `work` from `taskCount` tasks at once and returns every task's answer.
    private func concurrently(_ taskCount: Int, _ work: @escaping @Sendable () throws -> Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<taskCount { group.addTask { try work() } }
            var answers: [Int] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    @Test func oneCompiledPredicateFromSixteenTasks() async throws {
        // ids 100..<1900 with a population over 5000 (id > 500): 501..<1900 = 1399 ids; of those,
        // names matching "ville-.*" case-insensitively (id % 7 == 0) or with tag "coast" (id % 3 == 0).
        let predicate = try FormatPredicate(
            format: "id BETWEEN {100, 1899} AND population > %d AND (name MATCHES[c] 'ville-[0-9]+' OR ANY tags == 'coast')",
            argumentArray: [5_000])
        let compiled = try CompiledPredicate(predicate)
        let expected = (501..<1_900).filter { $0 % 7 == 0 || $0 % 3 == 0 }.count
        #expect(expected == 600)
        let records = Self.records
        let answers = try await concurrently(16) {
            try records.reduce(0) { count, record in try compiled.evaluate(value: record) ? count + 1 : count }
        }
        #expect(answers == Array(repeating: 600, count: 16))
    }

    @Test func variablePatternsShareTheRegularExpressionCache() async throws {
        // The pattern comes from a variable, so each evaluation goes through the shared, locked cache.
        let compiled = try CompiledPredicate(try FormatPredicate(format: "name MATCHES $PATTERN"))
        let records = Self.records
        let answers = try await concurrently(16) {
            var count = 0
            for (index, record) in records.enumerated() {
                let pattern: Value = index % 2 == 0 ? "Ville-[0-9]+" : "city-1[0-9]*"
                if try compiled.evaluate(value: record, variables: ["PATTERN": pattern]) { count += 1 }
            }
            return count
        }
        // Even ids named Ville-: id % 14 == 0, 143 of them; odd ids named city-1...: odd, not % 7, first digit 1.
        let expected = (0..<2_000).filter { id in
            id % 2 == 0 ? id % 7 == 0 : (id % 7 != 0 && String(id).hasPrefix("1"))
        }.count
        #expect(answers == Array(repeating: expected, count: 16))
        #expect(expected == 143 + 477)
    }

    @Test func oneCompiledExpressionFromSixteenTasks() async throws {
        let expression = try CompiledExpression(try FormatExpression(format: "population * 2 + tags.@count"))
        let records = Self.records
        let answers = try await concurrently(16) {
            try records.reduce(0) { sum, record in
                guard case .int(let value) = try expression.value(for: record) else { return sum - 1_000_000 }
                return sum + Int(value)
            }
        }
        // sum of id * 20 for id < 2000, plus 2 tags for 667 ids and 1 for the other 1333.
        let expected = 20 * (1_999 * 2_000 / 2) + 2 * 667 + 1_333
        #expect(answers == Array(repeating: expected, count: 16))
    }
}

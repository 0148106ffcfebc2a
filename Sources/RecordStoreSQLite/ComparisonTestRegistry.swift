import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The comparisons the SQL function `query_test` runs with the evaluator, by number:
/// a query binds the number, so the SQL is exact by construction and holds no predicate text.
final class ComparisonTestRegistry: Sendable {
    private struct State {
        var byNumber: [Int64: CompiledPredicate] = [:]
        var numbers: [FormatPredicate: Int64] = [:]
    }

    private let state = LockedState(State())
    /// Beyond this many entries the registry starts over (a query in flight re-registers).
    private let capacity = 4096

    /// The number of a comparison of `SELF` with constants, compiled once.
    func register(_ predicate: FormatPredicate) throws(RecordStoreError) -> Int64 {
        if let number = state.withLock({ $0.numbers[predicate] }) { return number }
        let compiled: CompiledPredicate
        do {
            compiled = try CompiledPredicate(predicate)
        } catch {
            throw RecordStoreError(evaluating: error)
        }
        return state.withLock { state in
            if let number = state.numbers[predicate] { return number }
            if state.numbers.count >= capacity {
                state.numbers.removeAll()
            }
            let number = Int64(state.byNumber.count + 1)
            state.byNumber[number] = compiled
            state.numbers[predicate] = number
            return number
        }
    }

    /// Comparison number `number`, compiled; nil for a number never registered.
    func comparison(_ number: Int64) -> CompiledPredicate? {
        state.withLock { $0.byNumber[number] }
    }
}

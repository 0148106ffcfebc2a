import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite
import TestSupport

/// Property-based differential tests: random well-typed predicates and sorts over the
/// cities schema run on the memory engine (the reference) and every other ``TestEngine``; any
/// difference in the records, their order, the count or an error is a failure that prints
/// the seed, the predicate, the sorts and the first differing record.
///
/// `QUERY_DIFFERENTIAL_SEED` changes the run's seed (default 20_240_601),
/// `QUERY_DIFFERENTIAL_COUNT` the number of predicates (default 2,000), and
/// `QUERY_DIFFERENTIAL_CASE_SEED` replays the one case a failure printed, and
/// `QUERY_DIFFERENTIAL_PROFILE=1` prints every case with the time each engine took.
@Suite("Differential: random predicates agree on every engine")
struct DifferentialTests {
    static let defaultSeed: UInt64 = 20_240_601
    static let defaultCount = 2_000
    /// The cases run in this many parallel parts.
    static let partCount = 4

    /// Whether to print each case with the time each engine took (`QUERY_DIFFERENTIAL_PROFILE`).
    static let profile = ProcessInfo.processInfo.environment["QUERY_DIFFERENTIAL_PROFILE"] != nil

    static var runSeed: UInt64 {
        ProcessInfo.processInfo.environment["QUERY_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? defaultSeed
    }

    static var caseCount: Int {
        ProcessInfo.processInfo.environment["QUERY_DIFFERENTIAL_COUNT"].flatMap(Int.init).map { max(0, $0) } ?? defaultCount
    }

    /// The seeds of part `part`'s cases (or only the replayed case, in part 0).
    static func caseSeeds(part: Int) -> [UInt64] {
        if let replay = ProcessInfo.processInfo.environment["QUERY_DIFFERENTIAL_CASE_SEED"].flatMap(UInt64.init) {
            return part == 0 ? [replay] : []
        }
        return stride(from: part, to: caseCount, by: partCount).map { SplitMix64.caseSeed(runSeed: runSeed, index: $0) }
    }

    /// What one engine answered.
    struct Answer: Equatable {
        var recordNames: [String]
        var count: Int
    }

    @Test("Random predicates and sorts give the same records, order and count", arguments: 0..<partCount)
    func randomPredicates(part: Int) throws {
        let dataset = try DifferentialDataset.shared.get()
        let samples = DatasetSamples(records: dataset.records)
        let seeds = Self.caseSeeds(part: part)
        print("DIFFERENTIAL part \(part): run seed \(Self.runSeed), \(seeds.count) of \(Self.caseCount) cases over \(dataset.records.count) records")
        var nonEmpty = 0
        var failed = 0
        for seed in seeds {
            var generator = PredicateGenerator(seed: seed, samples: samples)
            let testCase = generator.makeCase()
            if let difference = Self.difference(testCase, dataset: dataset, nonEmpty: &nonEmpty) {
                failed += 1
                Issue.record(Comment(rawValue: "run seed \(Self.runSeed), case \(testCase)\n\(difference)"))
                if failed >= 20 { break }
            }
        }
        print("DIFFERENTIAL part \(part): \(seeds.count) cases, \(nonEmpty) with records, \(failed) differing")
        #expect(failed == 0)
    }

    /// A description of how the engines differ on a case, or nil when they agree.
    static func difference(_ testCase: DifferentialCase, dataset: DifferentialDataset, nonEmpty: inout Int) -> String? {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        } catch {
            return "the generated predicate does not parse: \(error)"
        }
        let memoryStart = Date()
        let memory = answer(predicate, testCase, store: dataset.memory)
        if profile {
            print(String(format: "DIFFERENTIAL memory %.3f s: %@", Date().timeIntervalSince(memoryStart), testCase.description))
        }
        if case .success(let fromMemory) = memory, !fromMemory.recordNames.isEmpty { nonEmpty += 1 }
        var differences: [String] = []
        for (engine, store) in dataset.others {
            let start = Date()
            let other = answer(predicate, testCase, store: store)
            if profile {
                print(String(format: "DIFFERENTIAL %@ %.3f s: %@", engine.rawValue, Date().timeIntervalSince(start), testCase.description))
            }
            if let difference = difference(memory, other, engine: engine.rawValue, predicate: predicate, testCase, dataset) {
                differences.append(difference)
            }
        }
        return differences.isEmpty ? nil : differences.joined(separator: "\n")
    }

    /// How one engine's answer differs from the memory engine's, or nil when they agree.
    static func difference(
        _ memory: Result<Answer, RecordStoreError>, _ other: Result<Answer, RecordStoreError>, engine: String,
        predicate: FormatPredicate, _ testCase: DifferentialCase, _ dataset: DifferentialDataset
    ) -> String? {
        let printed = "predicate: \(predicate.predicateFormat)"
        switch (memory, other) {
        case (.success(let fromMemory), .success(let fromOther)):
            if fromMemory == fromOther { return nil }
            var lines = [printed, "count: memory \(fromMemory.count), \(engine) \(fromOther.count)",
                         "records: memory \(fromMemory.recordNames.count), \(engine) \(fromOther.recordNames.count)"]
            if let index = firstDifference(fromMemory.recordNames, fromOther.recordNames) {
                lines.append("first difference at position \(index):")
                let memoryName = index < fromMemory.recordNames.count ? fromMemory.recordNames[index] : nil
                let otherName = index < fromOther.recordNames.count ? fromOther.recordNames[index] : nil
                lines.append("  memory: \(describe(memoryName, testCase, dataset))")
                lines.append("  \(engine): \(describe(otherName, testCase, dataset))")
                let missing = Set(fromMemory.recordNames).symmetricDifference(fromOther.recordNames).sorted().prefix(3)
                for name in missing {
                    let side = fromMemory.recordNames.contains(name) ? "only memory" : "only \(engine)"
                    lines.append("  \(side): \(describe(name, testCase, dataset))")
                }
            }
            return lines.joined(separator: "\n")
        case (.failure(let memoryError), .failure(let otherError)):
            if memoryError.description == otherError.description { return nil }
            return [printed, "memory error: \(memoryError)", "\(engine) error: \(otherError)"].joined(separator: "\n")
        case (.success(let fromMemory), .failure(let otherError)):
            return [printed, "memory answered \(fromMemory.count) records", "\(engine) error: \(otherError)"].joined(separator: "\n")
        case (.failure(let memoryError), .success(let fromOther)):
            return [printed, "memory error: \(memoryError)", "\(engine) answered \(fromOther.count) records"].joined(separator: "\n")
        }
    }

    /// The first position where two lists of names differ (a missing name counts), or nil.
    static func firstDifference(_ lhs: [String], _ rhs: [String]) -> Int? {
        for index in 0..<max(lhs.count, rhs.count) {
            if index >= lhs.count || index >= rhs.count || lhs[index] != rhs[index] { return index }
        }
        return nil
    }

    static func answer(_ predicate: FormatPredicate, _ testCase: DifferentialCase, store: Store) -> Result<Answer, RecordStoreError> {
        do throws(RecordStoreError) {
            let records = try store.records(
                ofType: DifferentialDataset.recordType, matching: predicate, sorts: testCase.sorts, limit: testCase.limit)
            let count = try store.count(ofType: DifferentialDataset.recordType, matching: predicate)
            return .success(Answer(recordNames: records.map(\.recordID.recordName), count: count))
        } catch {
            return .failure(error)
        }
    }

    /// A record's name and the values of the fields the case reads.
    static func describe(_ recordName: String?, _ testCase: DifferentialCase, _ dataset: DifferentialDataset) -> String {
        guard let recordName else { return "(no record)" }
        guard let record = dataset.records.first(where: { $0.recordID.recordName == recordName }) else { return recordName }
        let values = (["name"] + testCase.fields.filter { $0 != "name" }).map { field in
            "\(field) = \(DifferentialCase.describe(record.value(named: field)))"
        }
        return "\(recordName): " + values.joined(separator: ", ")
    }
}

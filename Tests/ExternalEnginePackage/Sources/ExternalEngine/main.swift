import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreConformance

// Runs the whole conformance suite (the queries over cities15000 and the store's behaviours) on
// DictionaryEngine, opened by location as an application opens it, against the memory engine;
// prints each difference and exits with status 1 when there is any.
StoreRegistry.shared.register(.dictionary)
let started = ContinuousClock.now
// Opened by location through the registry, as `Store.open(url:)` of the `RecordStore` library does.
let location = try StoreLocation("dictionary:")
let store = Store(engine: try await StoreRegistry.shared.scheme(for: location).open(location, nil))
let reference = Store.inMemory()
for target in [store, reference] {
    try await EngineConformance.loadCities(into: target)
}
print("external-engine: loaded \(try store.count(ofType: EngineConformance.cityType, matching: FormatPredicate.truePredicate)) cities from the conformance library's resource")

var failures = 0
for testCase in ConformanceCase.all {
    let differences: [String]
    do {
        differences = try await EngineConformance.differences(testCase, in: store, reference: reference)
    } catch {
        differences = ["\(testCase): \(error)"]
    }
    for difference in differences { print("external-engine: FAIL \(difference)") }
    if !differences.isEmpty { failures += 1 }
}

// The behaviours hold on the reference too (the memory engine, which the package ships).
for testCase in ConformanceCase.storeBehaviors {
    let differences = (try? await EngineConformance.differences(testCase, in: reference, reference: reference)) ?? ["\(testCase): threw"]
    for difference in differences { print("external-engine: FAIL memory: \(difference)") }
    if !differences.isEmpty { failures += 1 }
}

// The plans come from the published SQL planner.
let plan = try store.explain(ofType: EngineConformance.cityType, matching: FormatPredicate(format: "countrycode == 'FR' AND population > 500000"))
print("external-engine: plan: \(plan.sql) \(plan.arguments)")
if plan.engine != "dictionary" || !plan.sql.contains("WHERE") {
    print("external-engine: FAIL the plan is not the SQL planner's: \(plan)")
    failures += 1
}

let cases = ConformanceCase.all.count
print("external-engine: \(cases - failures) of \(cases) conformance cases passed (\(ConformanceCase.cities15000.count) queries, \(ConformanceCase.storeBehaviors.count) behaviours) in \(ContinuousClock.now - started)")
exit(failures == 0 ? 0 : 1)

import Testing
@testable import PredicateLanguage

/// Asserts that the profile finds exactly these violations, as (message, fragment) pairs in order,
/// and that `validate` throws the first of them (or nothing when there are none).
func expectViolations(
    _ rules: PredicateRules, _ predicate: FormatPredicate, _ expected: [(String, String)],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = rules.violations(in: predicate)
    #expect(found.map(\.message) == expected.map(\.0), "in \(predicate)", sourceLocation: sourceLocation)
    #expect(found.map(\.fragment) == expected.map(\.1), "in \(predicate)", sourceLocation: sourceLocation)
    #expect(found.allSatisfy { $0.profile == rules }, sourceLocation: sourceLocation)
    do {
        try rules.validate(predicate)
        #expect(expected.isEmpty, "validate passed but violations were expected", sourceLocation: sourceLocation)
    } catch let error as FormatPredicateError {
        if let first = expected.first {
            #expect(error == .ruleViolation(RuleViolation(profile: rules, message: first.0, fragment: first.1)),
                    sourceLocation: sourceLocation)
        } else {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
    }
}

/// Asserts that the profile accepts the predicate.
func expectAccepted(_ rules: PredicateRules, _ predicate: FormatPredicate, sourceLocation: SourceLocation = #_sourceLocation) {
    expectViolations(rules, predicate, [], sourceLocation: sourceLocation)
}

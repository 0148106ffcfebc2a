extension PredicateRules {
    /// Checks the predicate against this profile and throws the first rule it breaks,
    /// in reading order, as ``FormatPredicateError/ruleViolation(_:)``.
    ///
    /// ```swift
    /// let predicate = FormatPredicate.comparison(
    ///     ComparisonPredicate(.keyPath("name"), .endsWith, .constant("son")))
    /// try PredicateRules.full.validate(predicate)       // passes
    /// try PredicateRules.cloudKit.validate(predicate)   // throws: ENDSWITH is not supported in CloudKit queries: name ENDSWITH "son"
    /// ```
    public func validate(_ predicate: FormatPredicate) throws {
        if let first = violations(in: predicate).first {
            throw FormatPredicateError.ruleViolation(first)
        }
    }

    /// Every rule of this profile the predicate breaks, in reading order
    /// (the order in which the offending parts appear in the printed predicate).
    ///
    /// ```swift
    /// let predicate = FormatPredicate.or([
    ///     .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1))),
    ///     .comparison(ComparisonPredicate(.keyPath("b"), .like, .constant("x*"))),
    /// ])
    /// PredicateRules.cloudKit.violations(in: predicate).map(\.message)
    /// // ["OR is not supported in CloudKit queries", "LIKE is not supported in CloudKit queries"]
    /// ```
    public func violations(in predicate: FormatPredicate) -> [RuleViolation] {
        switch self {
        case .full:
            return []
        case .cloudKit:
            var checker = CloudKitRuleChecker()
            checker.check(predicate)
            return checker.violations
        case .coreData:
            var checker = CoreDataRuleChecker()
            checker.check(predicate)
            return checker.violations
        }
    }
}

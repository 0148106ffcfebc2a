/// A predicate broke a rule of a ``PredicateRules`` profile.
///
/// ```swift
/// do {
///     try PredicateRules.cloudKit.validate(FormatPredicate(format: "ALL tags == 'a'"))
/// } catch FormatPredicateError.ruleViolation(let violation) {
///     print(violation.message)   // ALL is not supported in CloudKit queries
/// }
/// ```
public struct RuleViolation: Sendable, Equatable, CustomStringConvertible {
    /// The profile whose rule was broken.
    public var profile: PredicateRules
    /// The rule, stated as a sentence: "ALL is not supported in CloudKit queries".
    public var message: String
    /// The part of the predicate that breaks the rule, in canonical form.
    public var fragment: String

    /// Creates a rule violation.
    public init(profile: PredicateRules, message: String, fragment: String) {
        self.profile = profile
        self.message = message
        self.fragment = fragment
    }

    public var description: String {
        "\(message): \(fragment)"
    }
}

/// A rule profile: which parts of the language a predicate may use.
public enum PredicateRules: String, Sendable, Hashable, CaseIterable {
    /// Everything the format-string language offers.
    case full
    /// What `CKQuery` accepts, per Apple's `CKQuery` reference.
    case cloudKit
    /// What a SQLite-backed Core Data store accepts in a fetch request.
    case coreData
}

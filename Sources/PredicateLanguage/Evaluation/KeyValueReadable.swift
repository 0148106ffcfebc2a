/// Something a predicate can be evaluated against: it gives a value for a key,
/// and the strings a full-text search (`self CONTAINS "bob"`) looks at.
///
/// `[String: Value]` and `Value` (through `.object`) conform. Conform your own
/// record types to evaluate predicates on them without copying them into dictionaries.
///
/// ```swift
/// struct City: KeyValueReadable {
///     var name: String
///     var population: Int64
///     func value(forKey key: String) -> Value {
///         switch key {
///         case "name": .string(name)
///         case "population": .int(population)
///         default: .null
///         }
///     }
/// }
/// let big = try FormatPredicate.comparison(
///     ComparisonPredicate(.keyPath("population"), .greaterThan, .constant(1_000_000)))
///     .evaluate(with: City(name: "Paris", population: 2_148_000))   // true
/// ```
public protocol KeyValueReadable {
    /// The value stored under `key`, or `.null` when there is none.
    func value(forKey key: String) -> Value

    /// The strings a full-text search looks at. The default gives nothing;
    /// `[String: Value]` and `Value` give their string fields and the string
    /// members of their list fields (not nested objects).
    func fullTextValues() -> [String]

    /// The object itself as a `Value`: what `SELF` evaluates to.
    /// The default is `.null` (a custom type cannot be copied into a value);
    /// `[String: Value]` gives `.object(self)` and `Value` gives itself.
    func evaluatedObjectValue() -> Value
}

extension KeyValueReadable {
    /// No full-text values by default.
    ///
    /// ```swift
    /// struct Empty: KeyValueReadable { func value(forKey key: String) -> Value { .null } }
    /// Empty().fullTextValues()   // []
    /// ```
    public func fullTextValues() -> [String] { [] }

    /// `SELF` is `.null` by default.
    ///
    /// ```swift
    /// Empty().evaluatedObjectValue()   // .null
    /// ```
    public func evaluatedObjectValue() -> Value { .null }
}

extension Dictionary: KeyValueReadable where Key == String, Value == PredicateLanguage.Value {
    /// The value under `key`, or `.null`.
    ///
    /// ```swift
    /// ["name": "Paris"].value(forKey: "name")   // .string("Paris")
    /// ```
    @inlinable
    public func value(forKey key: String) -> PredicateLanguage.Value {
        self[key] ?? .null
    }

    /// The string fields and the string members of list fields, in key order.
    ///
    /// ```swift
    /// (["name": "Paris", "tags": ["capital"]] as [String: Value]).fullTextValues()   // ["Paris", "capital"]
    /// ```
    public func fullTextValues() -> [String] {
        FullTextValues.gather(from: self)
    }

    /// `.object(self)`.
    ///
    /// ```swift
    /// (["a": 1] as [String: Value]).evaluatedObjectValue()   // .object(["a": 1])
    /// ```
    public func evaluatedObjectValue() -> PredicateLanguage.Value {
        .object(self)
    }
}

extension Value: KeyValueReadable {
    /// The value under `key` of an `.object`; for other kinds, what Apple's key-value coding
    /// reaches (see ``KeyValueCoding``: a string's `length`, a number's `intValue`, ...), else `.null`.
    ///
    /// ```swift
    /// Value.object(["name": "Paris"]).value(forKey: "name")   // .string("Paris")
    /// Value.string("Paris").value(forKey: "length")           // .int(5)
    /// ```
    @inlinable
    public func value(forKey key: String) -> Value {
        if case .object(let fields) = self { return fields[key] ?? .null }
        return KeyValueCoding.value(forKey: key, of: self)
    }

    /// For an `.object`, its string fields and the string members of its list fields;
    /// for a `.string`, the string; for a `.list`, its string members; else nothing.
    ///
    /// ```swift
    /// Value.list(["a", 1]).fullTextValues()   // ["a"]
    /// ```
    public func fullTextValues() -> [String] {
        switch self {
        case .object(let fields): FullTextValues.gather(from: fields)
        case .string(let text): [text]
        case .list(let members): members.compactMap(\.stringValue)
        default: []
        }
    }

    /// The value itself.
    ///
    /// ```swift
    /// Value.int(1).evaluatedObjectValue()   // .int(1)
    /// ```
    public func evaluatedObjectValue() -> Value { self }
}

/// Gathers the strings of a dictionary for full-text search.
enum FullTextValues {
    static func gather(from fields: [String: Value]) -> [String] {
        var strings: [String] = []
        for key in fields.keys.sorted() {
            switch fields[key] {
            case .string(let text)?:
                strings.append(text)
            case .list(let members)?:
                for case .string(let text) in members { strings.append(text) }
            default:
                break
            }
        }
        return strings
    }
}

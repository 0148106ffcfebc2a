import PredicateLanguage

/// One sort key of a query: a field or metadata name, a direction and a string comparison,
/// or the distance of a location field from a point.
///
/// `nil` sorts first in ascending order (last in descending order); the record name
/// breaks ties, so results are always in one definite order.
///
/// ```swift
/// let byPopulation = Sort("population", ascending: false)
/// let byName = Sort("name", comparison: .localizedCaseInsensitive)
/// let nearest = Sort.distance(from: Location(latitude: 48.8566, longitude: 2.3522), key: "location")
/// let sorts = try [Sort(parsing: "-population"), Sort(parsing: "name")]
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `QuerySort`,
/// `SortDirection`, `SortComparison`, `RecordOrdering` and `ValueOrdering`.
public struct Sort: Sendable, Hashable {
    /// The field or metadata name.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings compare.
    public var comparison: SortComparison
    /// For a distance sort: the point distances are measured from.
    public var distanceOrigin: Location?

    /// Creates a sort on a field or metadata name.
    public init(_ key: String, ascending: Bool = true, comparison: SortComparison = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
        self.distanceOrigin = nil
    }

    /// A sort by the great-circle distance of a location field from a point (nearest first when ascending).
    ///
    /// ```swift
    /// Sort.distance(from: paris, key: "location")
    /// ```
    public static func distance(from origin: Location, key: String, ascending: Bool = true) -> Sort {
        var sort = Sort(key, ascending: ascending)
        sort.distanceOrigin = origin
        return sort
    }

    /// Parses the command-line form: `key` ascending, `-key` descending.
    ///
    /// ```swift
    /// try Sort(parsing: "-population")   // Sort("population", ascending: false)
    /// ```
    public init(parsing text: String) throws(RecordStoreError) {
        let descending = text.hasPrefix("-")
        let key = String(descending ? text.dropFirst() : text[...])
        guard !key.isEmpty else { throw .invalidSort(key: text, reason: "the key is empty") }
        self.init(key, ascending: !descending)
    }
}

extension Sort: CustomStringConvertible {
    /// `population DESC`, `name ASC localizedStandard`, `distance(location, <48.85, 2.35>) ASC`.
    public var description: String {
        let direction = ascending ? "ASC" : "DESC"
        if let distanceOrigin { return "distance(\(key), \(distanceOrigin)) \(direction)" }
        return comparison == .compare ? "\(key) \(direction)" : "\(key) \(direction) \(comparison.rawValue)"
    }
}

import PredicateLanguage

/// One group of `Query.group(by:)`: the values of the grouped fields and how many
/// matches have them.
///
/// ```swift
/// try Item.query(in: context).group(by: .department)
/// // [GroupCount(values: [.null], count: 1), GroupCount(values: ["Fruit"], count: 2), ...]
/// ```
public struct GroupCount: Sendable, Hashable {
    /// The value of each grouped field, in the order the fields were given; `.null` for matches without one.
    public var values: [Value]
    /// How many matches are in the group.
    public var count: Int

    /// Creates a group.
    ///
    /// ```swift
    /// GroupCount(values: ["Fruit"], count: 2)
    /// ```
    public init(values: [Value], count: Int) {
        self.values = values
        self.count = count
    }
}

extension GroupCount: CustomStringConvertible {
    /// The group's values and its count: `["Fruit"]: 2`.
    ///
    /// ```swift
    /// print(try Item.query(in: context).group(by: .department))   // [[nil]: 1, ["Fruit"]: 2]
    /// ```
    public var description: String { "\(Value.list(values)): \(count)" }
}

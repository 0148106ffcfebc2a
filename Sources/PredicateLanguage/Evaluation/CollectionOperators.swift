/// The key-path collection operators: `@count`, `@sum`, `@avg`, `@min`, `@max`,
/// `@distinctUnionOfObjects`, `@unionOfObjects`, `@distinctUnionOfArrays`, `@unionOfArrays`.
///
/// Applied to a list (a `nil` counts as an empty list, any other value as a
/// one-member list), after the rest of the key path, if any, has been applied to
/// each member: `items.@sum.price` sums the prices of the items.
///
/// ```swift
/// CollectionOperator(rawValue: "@sum")?.apply(to: [1, 2, 3.5])   // .double(6.5)
/// ```
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// The number of members of a list, or of entries of an object; `nil` counts 0; any other value gives `nil`.
    case count = "@count"
    /// The sum of the numeric members (null members skipped); 0 for an empty list.
    case sum = "@sum"
    /// The mean of the numeric members (null members skipped); `nil` for an empty list.
    case average = "@avg"
    /// The smallest member under ``ValueOrdering`` (null members skipped); `nil` for an empty list.
    case minimum = "@min"
    /// The largest member under ``ValueOrdering`` (null members skipped); `nil` for an empty list.
    case maximum = "@max"
    /// The members without repeats, in first-seen order.
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    /// The members as they are.
    case unionOfObjects = "@unionOfObjects"
    /// The members of the member lists, without repeats.
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
    /// The members of the member lists.
    case unionOfArrays = "@unionOfArrays"

    /// Whether the operator counts members and so ignores the key path after it.
    var ignoresRest: Bool { self == .count }

    /// The members of the left side of `ANY`, `SOME`, `ALL` or `NONE`, which must be a
    /// collection, as Apple's `NSComparisonPredicate` requires: another value raises "The left
    /// hand side for an ALL or ANY operator must be either an NSArray or an NSSet." (a string, a
    /// number, a to-one reference, an object). A missing value (nil) is an empty collection: a
    /// record store cannot tell an absent list field from an empty one (CloudKit keeps no empty
    /// lists), and a to-many relationship is never nil in Core Data.
    ///
    /// ```swift
    /// try CollectionOperator.quantifiedMembers(of: .list([1, 2]))   // [1, 2]
    /// try CollectionOperator.quantifiedMembers(of: .null)           // []
    /// try CollectionOperator.quantifiedMembers(of: "a")             // throws
    /// ```
    static func quantifiedMembers(of value: Value) throws(FormatPredicateError) -> [Value] {
        switch value {
        case .list(let members): return members
        case .null: return []
        default:
            throw FormatPredicateError.evaluation(
                "the left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but it is a \(value.typeName) (\(value))")
        }
    }

    /// The members of a value seen as a collection.
    static func members(of value: Value) -> [Value] {
        switch value {
        case .list(let members): members
        case .null: []
        default: [value]
        }
    }

    /// Applies the operator to the members; throws `FormatPredicateError.evaluation` when
    /// `@sum`/`@avg` meet a member that is not a number.
    ///
    /// ```swift
    /// try CollectionOperator.count.apply(to: [1, 2])   // .int(2)
    /// ```
    public func apply(to value: Value) throws(FormatPredicateError) -> Value {
        let members = Self.members(of: value)
        switch self {
        case .count:
            switch value {
            case .list(let list): return .int(Int64(list.count))
            case .object(let fields): return .int(Int64(fields.count))
            case .null: return .int(0)
            default: return .null
            }
        case .sum:
            return try Statistics.sum(members, context: rawValue)
        case .average:
            return try Statistics.average(members, context: rawValue)
        case .minimum:
            return try Statistics.extreme(members, wantLargest: false, context: rawValue)
        case .maximum:
            return try Statistics.extreme(members, wantLargest: true, context: rawValue)
        case .unionOfObjects:
            return .list(members)
        case .distinctUnionOfObjects:
            return .list(Self.distinct(members))
        case .unionOfArrays:
            return .list(members.flatMap(Self.members(of:)))
        case .distinctUnionOfArrays:
            return .list(Self.distinct(members.flatMap(Self.members(of:))))
        }
    }

    static func distinct(_ members: [Value]) -> [Value] {
        var seen = Set<Value>()
        var result: [Value] = []
        for member in members where seen.insert(member).inserted { result.append(member) }
        return result
    }
}

extension CollectionOperator {
    /// The error for a `@name` in a key path that is neither a collection operator nor a collection
    /// property. The parser accepts any `@name`, as Apple's does; the evaluator and the SQL planner
    /// refuse an unknown one with this error, which names it and lists the known ones.
    ///
    /// ```swift
    /// print(CollectionOperator.unknownOperatorError("@K", in: "@K"))
    /// // unknown collection operator @K in the key path "@K"; use one of @count, @sum, @avg, ...
    /// ```
    public static func unknownOperatorError(_ name: String, in path: String) -> FormatPredicateError {
        let known = CollectionOperator.allCases.map(\.rawValue) + CollectionProperty.allCases.map(\.rawValue)
        return .evaluation("unknown collection operator \(name) in the key path \"\(path)\"; use one of " + known.joined(separator: ", "))
    }
}

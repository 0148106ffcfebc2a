import Foundation

/// The statistics behind `@sum`, `@avg`, `@min`, `@max` and the functions
/// `sum:`, `average:`, `min:`, `max:`, `median:`, `mode:`, `stddev:`.
/// Null members are skipped; any other non-number is an error.
enum Statistics {
    /// The numbers of a list, skipping nulls.
    static func numbers(_ members: [Value], context: String) throws(FormatPredicateError) -> [Value] {
        var numbers: [Value] = []
        numbers.reserveCapacity(members.count)
        for member in members {
            switch member {
            case .null: continue
            case .int, .double, .bool: numbers.append(member)
            default:
                throw FormatPredicateError.evaluation(
                    "\(context) needs numbers, but the list holds a \(member.typeName) (\(member))")
            }
        }
        return numbers
    }

    /// The sum: an integer while every member is an integer (or boolean) and the sum fits, else a double. 0 when empty.
    static func sum(_ members: [Value], context: String) throws(FormatPredicateError) -> Value {
        var total: Value = .int(0)
        for number in try numbers(members, context: context) {
            total = (try? Arithmetic.apply(.add, total, number)) ?? total
        }
        return total
    }

    /// The mean as a double; nil when there are no numbers.
    static func average(_ members: [Value], context: String) throws(FormatPredicateError) -> Value {
        let values = try numbers(members, context: context).compactMap(\.numericValue)
        if values.isEmpty { return .null }
        return .double(values.reduce(0, +) / Double(values.count))
    }

    /// The smallest or largest non-null member; nil when there is none.
    static func extreme(_ members: [Value], wantLargest: Bool, context: String) throws(FormatPredicateError) -> Value {
        var best: Value? = nil
        for member in members where !member.isNull {
            guard let current = best else {
                best = member
                continue
            }
            guard let order = ValueOrdering.compare(member, current) else {
                throw FormatPredicateError.evaluation(
                    "\(context) cannot compare a \(member.typeName) with a \(current.typeName)")
            }
            if wantLargest ? order == .orderedDescending : order == .orderedAscending { best = member }
        }
        return best ?? .null
    }

    /// The median as a double (the mean of the two middle numbers for an even count); nil when empty.
    static func median(_ members: [Value], context: String) throws(FormatPredicateError) -> Value {
        let values = try numbers(members, context: context).compactMap(\.numericValue).sorted()
        if values.isEmpty { return .null }
        let middle = values.count / 2
        if values.count % 2 == 1 { return .double(values[middle]) }
        return .double((values[middle - 1] + values[middle]) / 2)
    }

    /// The most frequent members (all of them on a tie), in first-seen order; an empty list when empty.
    static func mode(_ members: [Value]) -> Value {
        var counts: [Value: Int] = [:]
        var order: [Value] = []
        for member in members where !member.isNull {
            if counts[member] == nil { order.append(member) }
            counts[member, default: 0] += 1
        }
        let highest = counts.values.max() ?? 0
        return .list(order.filter { counts[$0] == highest })
    }

    /// The population standard deviation as a double; nil when empty.
    static func standardDeviation(_ members: [Value], context: String) throws(FormatPredicateError) -> Value {
        let values = try numbers(members, context: context).compactMap(\.numericValue)
        if values.isEmpty { return .null }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return .double(variance.squareRoot())
    }
}

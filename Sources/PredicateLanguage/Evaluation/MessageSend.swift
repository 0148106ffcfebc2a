import Foundation

/// `FUNCTION(receiver, 'selector', arguments...)` as Apple evaluates it when no function of that
/// name is registered: the message is sent to the receiver. These are the zero- and
/// one-argument methods of `NSString`, `NSNumber`, `NSDate` and `NSArray` that return a value a
/// predicate can compare:
///
/// - every key ``KeyValueCoding`` reaches on a string, number or date (`uppercaseString`,
///   `length`, `intValue`, `doubleValue`, `boolValue`, `stringValue`, `description`,
///   `timeIntervalSinceReferenceDate`, ...);
/// - on a string: `stringByAppendingString:`, `hasPrefix:`, `hasSuffix:`, `containsString:`,
///   `isEqualToString:`;
/// - on a list (`NSArray`): `count`, `firstObject`, `lastObject`, `objectAtIndex:` (an index
///   out of range raises, as `NSRangeException` does), `containsObject:`.
///
/// A message sent to nil answers nil, as Objective-C's does. Any other selector is not sent
/// (the evaluator reports the function as unknown).
///
/// ```swift
/// MessageSend.send("uppercaseString", to: "a", arguments: [])         // .string("A")
/// MessageSend.send("hasPrefix:", to: "Paris", arguments: ["Pa"])      // .bool(true)
/// MessageSend.send("objectAtIndex:", to: [10, 20], arguments: [1])    // .int(20)
/// MessageSend.send("frobnicate", to: "a", arguments: [])              // nil: not a message
/// ```
enum MessageSend {
    /// What the message answers; nil when the receiver's kind has no such method.
    static func send(_ selector: String, to receiver: Value, arguments: [Value]) throws(FormatPredicateError) -> Value? {
        let argumentCount = selector.utf8.count { $0 == UInt8(ascii: ":") }
        guard argumentCount == arguments.count else {
            guard isKnown(selector) else { return nil }
            throw .evaluation("FUNCTION(..., '\(selector)') takes \(argumentCount) argument\(argumentCount == 1 ? "" : "s"), not \(arguments.count)")
        }
        if receiver.isNull { return isKnown(selector) ? Value.null : Value?.none }
        if let argument = arguments.first {
            return try send(selector, to: receiver, argument: argument)
        }
        switch receiver {
        case .list(let members):
            switch selector {
            case "count": return .int(Int64(members.count))
            case "firstObject": return members.first ?? .null
            case "lastObject": return members.last ?? .null
            default: return nil
            }
        case .string(let text):
            let value = KeyValueCoding.stringProperty(selector, of: text)
            return value.isNull ? Value?.none : value
        case .int, .double, .bool:
            let value = KeyValueCoding.numberProperty(selector, of: receiver)
            return value.isNull ? Value?.none : value
        case .date(let date):
            if selector == "description" { return .string(dateDescription(date)) }
            let value = KeyValueCoding.dateProperty(selector, of: date)
            return value.isNull ? Value?.none : value
        default:
            return nil
        }
    }

    /// The one-argument messages.
    private static func send(_ selector: String, to receiver: Value, argument: Value) throws(FormatPredicateError) -> Value? {
        switch (receiver, selector) {
        case (.string(let text), "stringByAppendingString:"):
            return .string(text + (try string(argument, selector)))
        case (.string(let text), "hasPrefix:"):
            return .bool(text.hasPrefix(try string(argument, selector)))
        case (.string(let text), "hasSuffix:"):
            return .bool(text.hasSuffix(try string(argument, selector)))
        case (.string(let text), "containsString:"):
            let other = try string(argument, selector)
            return .bool(!other.isEmpty && text.contains(other))
        case (.string(let text), "isEqualToString:"):
            return .bool(text == (try string(argument, selector)))
        case (.list(let members), "objectAtIndex:"):
            guard let index = KeyValueCoding.exactInteger(argument) else {
                throw .evaluation("FUNCTION(..., 'objectAtIndex:') needs an integer index, not \(argument.formatLiteral)")
            }
            guard index >= 0, index < members.count else {
                throw .evaluation("FUNCTION(..., 'objectAtIndex:'): index \(index) beyond bounds [0 .. \(members.count - 1)]")
            }
            return members[Int(index)]
        case (.list(let members), "containsObject:"):
            return .bool(members.contains { ComparisonSemantics.equal($0, argument) })
        default:
            return nil
        }
    }

    /// Whether a selector is one this type sends to some kind of receiver.
    private static func isKnown(_ selector: String) -> Bool {
        oneArgumentSelectors.contains(selector) || ["count", "firstObject", "lastObject"].contains(selector)
            || !KeyValueCoding.stringProperty(selector, of: "").isNull || !KeyValueCoding.numberProperty(selector, of: .int(0)).isNull
            || !KeyValueCoding.dateProperty(selector, of: Date(timeIntervalSinceReferenceDate: 0)).isNull
    }

    private static let oneArgumentSelectors: Set<String> = [
        "stringByAppendingString:", "hasPrefix:", "hasSuffix:", "containsString:", "isEqualToString:", "objectAtIndex:", "containsObject:",
    ]

    /// A string argument, or the error Apple's `NSInvalidArgumentException` stands for.
    private static func string(_ argument: Value, _ selector: String) throws(FormatPredicateError) -> String {
        guard case .string(let text) = argument else {
            throw .evaluation("FUNCTION(..., '\(selector)') needs a string argument, not \(argument.formatLiteral)")
        }
        return text
    }

    /// `NSDate`'s `description`: `2001-01-01 00:00:00 +0000`.
    private static func dateDescription(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ number: Int?) -> String { let text = String(number ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}

import Foundation
import PredicateLanguage

// Sequences, ranges and strings of Foundation's predicate tree.

extension PredicateExpressions.SequenceContains: FormatConvertibleExpression {
    /// `list.contains(x)` is `x IN list` (`x BETWEEN {a, b}` for a closed range).
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let element = try conversion.expression(self.element)
        let sequence = try conversion.expression(self.sequence)
        let isRange = LHS.Output.self is any RangeExpression.Type
        return .predicate(PredicateConversion.comparison(element, isRange ? .between : .in, sequence))
    }
}

extension PredicateExpressions.SequenceContainsWhere: FormatConvertibleExpression {
    /// `list.contains { test }` is `SUBQUERY(list, $x, test).@count != 0`.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let local = conversion.makeLocalVariable(for: variable.key)
        let subquery = FormatExpression.subquery(collection: try conversion.expression(sequence), variable: local, predicate: try conversion.predicate(test))
        return .predicate(PredicateConversion.comparison(.member(subquery, "@count"), .notEqualTo, .constant(.int(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: FormatConvertibleExpression {
    /// `list.allSatisfy { test }` is `SUBQUERY(list, $x, NOT test).@count == 0`.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let local = conversion.makeLocalVariable(for: variable.key)
        let subquery = FormatExpression.subquery(collection: try conversion.expression(sequence), variable: local, predicate: .not(try conversion.predicate(test)))
        return .predicate(PredicateConversion.comparison(.member(subquery, "@count"), .equalTo, .constant(.int(0))))
    }
}

extension PredicateExpressions.Filter: FormatConvertibleExpression {
    /// `list.filter { test }` is `SUBQUERY(list, $x, test)` (its `count` is `.@count`).
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let local = conversion.makeLocalVariable(for: variable.key)
        return .expression(.subquery(collection: try conversion.expression(sequence), variable: local, predicate: try conversion.predicate(filter)))
    }
}

extension PredicateExpressions.SequenceMaximum: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(PredicateConversion.member(try conversion.expression(elements), "@max"))
    }
}

extension PredicateExpressions.SequenceMinimum: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(PredicateConversion.member(try conversion.expression(elements), "@min"))
    }
}

extension PredicateExpressions.ClosedRange: FormatConvertibleExpression {
    /// `a ... b` is the aggregate `{a, b}` (for `BETWEEN`).
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.aggregate([try conversion.expression(lower), try conversion.expression(upper)]))
    }
}

extension PredicateExpressions.RangeExpressionContains: FormatConvertibleExpression {
    /// `(a ... b).contains(x)` is `x BETWEEN {a, b}`; `(a ..< b).contains(x)` is
    /// `x >= a AND x < b`; a captured range becomes the comparisons its kind means.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let element = try conversion.expression(self.element)
        if let bounds = range as? any HalfOpenRangeOperator {
            let lower = try conversion.expression(bounds.lowerExpression)
            let upper = try conversion.expression(bounds.upperExpression)
            return .predicate(.and([
                PredicateConversion.comparison(element, .greaterThanOrEqualTo, lower),
                PredicateConversion.comparison(element, .lessThan, upper),
            ]))
        }
        if let captured = (range as? any CapturedRange)?.capturedBounds {
            func bound(_ value: Any) throws(PredicateConversionError) -> FormatExpression { .constant(try PredicateConversion.constant(value)) }
            switch captured {
            case .halfOpen(let lower, let upper):
                return .predicate(.and([
                    PredicateConversion.comparison(element, .greaterThanOrEqualTo, try bound(lower)),
                    PredicateConversion.comparison(element, .lessThan, try bound(upper)),
                ]))
            case .closed(let lower, let upper):
                return .predicate(PredicateConversion.comparison(element, .between, .constant(.list([
                    try PredicateConversion.constant(lower), try PredicateConversion.constant(upper),
                ]))))
            case .from(let lower):
                return .predicate(PredicateConversion.comparison(element, .greaterThanOrEqualTo, try bound(lower)))
            case .through(let upper):
                return .predicate(PredicateConversion.comparison(element, .lessThanOrEqualTo, try bound(upper)))
            case .upTo(let upper):
                return .predicate(PredicateConversion.comparison(element, .lessThan, try bound(upper)))
            }
        }
        return .predicate(PredicateConversion.comparison(element, .between, try conversion.expression(range)))
    }
}

/// The `..<` operator of a predicate, its bounds read without knowing their types.
protocol HalfOpenRangeOperator {
    var lowerExpression: any PredicateExpression { get }
    var upperExpression: any PredicateExpression { get }
}

extension PredicateExpressions.Range: HalfOpenRangeOperator {
    var lowerExpression: any PredicateExpression { lower }
    var upperExpression: any PredicateExpression { upper }
}

/// A range captured as a constant: its kind and bounds.
enum CapturedRangeBounds {
    case halfOpen(Any, Any)
    case closed(Any, Any)
    case from(Any)
    case through(Any)
    case upTo(Any)
}

protocol CapturedRange {
    var capturedBounds: CapturedRangeBounds? { get }
}

extension PredicateExpressions.Value: CapturedRange where Output: RangeExpression {
    var capturedBounds: CapturedRangeBounds? {
        switch value {
        case let range as Range<Output.Bound>: .halfOpen(range.lowerBound, range.upperBound)
        case let range as ClosedRange<Output.Bound>: .closed(range.lowerBound, range.upperBound)
        case let range as PartialRangeFrom<Output.Bound>: .from(range.lowerBound)
        case let range as PartialRangeThrough<Output.Bound>: .through(range.upperBound)
        case let range as PartialRangeUpTo<Output.Bound>: .upTo(range.upperBound)
        default: nil
        }
    }
}

extension PredicateExpressions.CollectionContainsCollection: FormatConvertibleExpression where Base.Output: StringProtocol, Other.Output: StringProtocol {
    /// `s.contains(t)` on strings is `s CONTAINS t`.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(PredicateConversion.comparison(try conversion.expression(base), .contains, try conversion.expression(other)))
    }
}

extension PredicateExpressions.SequenceStartsWith: FormatConvertibleExpression where Base.Output: StringProtocol, Prefix.Output: StringProtocol {
    /// `s.starts(with: t)` on strings is `s BEGINSWITH t`.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(PredicateConversion.comparison(try conversion.expression(base), .beginsWith, try conversion.expression(prefix)))
    }
}

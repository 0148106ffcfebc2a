// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// Whether a filter's value can be compared with a field of a stored type: what makes `filterBy`
/// comparing the INT64 field `population` with the string `"20000"` a `BAD_REQUEST` instead of
/// an empty answer. Numbers compare with numbers (INT64 and DOUBLE fields take both), a list
/// value (`IN`) fits when each member fits, and a list field takes a member (`LIST_CONTAINS`)
/// or a list of members.
///
/// ```swift
/// FieldValueFit.fits(.string("20000"), .int64)   // false
/// FieldValueFit.fits(.int(20000), .double)       // true
/// ```
enum FieldValueFit {
    /// Whether `value` fits a field of `type`.
    static func fits(_ value: Value, _ type: FieldType) -> Bool {
        switch (value, type) {
        case (.null, _): return true
        case (.list(let members), .list(let element)): return members.allSatisfy { fits($0, element) }
        case (_, .list(let element)): return fits(value, element)
        case (.list(let members), _): return members.allSatisfy { fits($0, type) }
        case (.string, .string), (.date, .date), (.bytes, .bytes), (.location, .location), (.reference, .reference): return true
        case (.int, .int64), (.bool, .int64), (.int, .bool), (.bool, .bool), (.int, .double), (.double, .double), (.double, .int64):
            return true
        default: return false
        }
    }

    /// A value's wire type for an error message: `a STRING ("20000")`.
    static func describe(_ value: Value) -> String {
        switch value {
        case .string(let text): "a STRING (\"\(text.prefix(40))\")"
        case .list: "a list"
        default: "a " + (WireValue.typeName(value) ?? "value")
        }
    }
}
#endif

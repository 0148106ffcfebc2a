// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// A field compared with a constant of another type, which the store answers with no record
/// rather than an error (`population == "abc"`): what `predicates/check` reports, with a
/// `recordType`, as an error of kind `type`. Only a field of the record type tested directly
/// against a constant is checked (a list field against its members' type); numbers, booleans
/// and integers go together, as the store compares them.
///
/// ```swift
/// let schema = RecordTypeSchema(name: "City", fields: [FieldSchema(name: "population", type: .int64)])
/// PredicateTypeCheck.mismatch(in: try FormatPredicate(format: #"population == "abc""#), schema: schema)?["field"]   // "population"
/// ```
enum PredicateTypeCheck {
    /// The first comparison whose constant cannot be a value of its field, as a check's `error`.
    static func mismatch(in predicate: FormatPredicate, schema: RecordTypeSchema) -> JSONValue? {
        switch predicate {
        case .constant:
            return nil
        case .and(let parts), .or(let parts):
            for part in parts {
                if let found = mismatch(in: part, schema: schema) { return found }
            }
            return nil
        case .not(let inner):
            return mismatch(in: inner, schema: schema)
        case .comparison(let comparison):
            for (fieldSide, valueSide) in [(comparison.left, comparison.right), (comparison.right, comparison.left)] {
                guard case .keyPath(let name) = fieldSide, let field = schema.field(named: name),
                      case .constant(let value) = valueSide else { continue }
                let members: [Value] = if case .list(let list) = value { list } else { [value] }
                let type = elementType(field.type)
                if let wrong = members.first(where: { !fits($0, type) }) {
                    let message = "\(name) is \(CloudKitService.wireTypeName(field.type)) and \(describe(wrong)) is \(article(wrong.typeName)) \(wrong.typeName)"
                        + ": the comparison can match no record"
                    return .object(["kind": .string("type"), "message": .string(message), "field": .string(name)])
                }
            }
            return nil
        }
    }

    /// The type a list field's members have; a scalar field's own.
    private static func elementType(_ type: FieldType) -> FieldType {
        if case .list(let member) = type { return elementType(member) }
        return type
    }

    /// Whether a constant can equal (or be compared with) a value of the type.
    private static func fits(_ value: Value, _ type: FieldType) -> Bool {
        switch (value, type) {
        case (.null, _): true
        case (.string, .string): true
        case (.int, .int64), (.int, .double), (.int, .bool), (.double, .int64), (.double, .double), (.double, .bool),
             (.bool, .int64), (.bool, .double), (.bool, .bool): true
        case (.date, .date), (.int, .date), (.double, .date): true
        case (.bytes, .bytes), (.string, .bytes): true
        case (.location, .location): true
        case (.reference, .reference), (.string, .reference): true
        case (_, .string), (_, .int64), (_, .double), (_, .bool), (_, .date), (_, .location): false
        default: true
        }
    }

    private static func article(_ noun: String) -> String { "aeiou".contains(noun.prefix(1)) ? "an" : "a" }

    /// A constant as the predicate would write it, shortened.
    private static func describe(_ value: Value) -> String {
        let text = FormatExpression.constant(value).description
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
#endif

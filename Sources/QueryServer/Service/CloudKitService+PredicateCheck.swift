// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// This server's extension `predicates/check`: parses an NSPredicate format string and checks
    /// it against a rule profile, as `records/query` would read its `query.predicate`.
    ///
    /// Takes `predicate` (the format string), `arguments` (its `%@`-style arguments, in the JSON
    /// mapping of `query.arguments`) and `rules` (`cloudkit`, `full` or `coredata`; default: the
    /// server's, which `query.predicate` follows). A predicate that does not parse or breaks a
    /// rule is an answer, not a failed request: `{"valid": false, "rules": ..., "error": {...}}`,
    /// the error with its `kind` (`syntax`, `argument`, `rule`, `variable` or `evaluation`) and
    /// `message`; a syntax error also has `expected`, `found`, the `offset` in characters, the
    /// `utf16Offset` (a JavaScript string index), and the 1-based `line` and `column` (in
    /// characters) where parsing stopped. A valid one answers its canonical form:
    /// `{"valid": true, "rules": ..., "canonical": "..."}`.
    ///
    /// With `recordType`, a predicate that parses is also checked against that type's schema, as
    /// `records/query` in the namespace's environment would check it, and against the types of
    /// its fields: the error's `kind` is then `recordType` (no such type), `field` (no such
    /// field; `suggestions` names the closest), `index` (in production, a field without the
    /// index the test needs) or `type` (a field compared with a value of another type, which
    /// would match no record), each with the `field` it is about (except `recordType`).
    ///
    /// ```swift
    /// let answer = try await service.checkPredicate(.object(["predicate": .string("name ==")]),
    ///                                               in: Namespace(environment: .production, database: .public))
    /// answer["error"]?["column"]   // 8
    /// ```
    public func checkPredicate(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(PredicateCheckRequest.self, from: body)
        let text = request.predicate
        let values = request.arguments
        let rules = request.rules ?? predicateRules
        let rulesName = JSONValue.string(rules.requestName)
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: text, argumentArray: values)
            try rules.validate(predicate)
        } catch let error as FormatPredicateError {
            return .object(["valid": .bool(false), "rules": rulesName, "error": Self.predicateErrorJSON(error)])
        } catch {
            return .object(["valid": .bool(false), "rules": rulesName,
                            "error": .object(["kind": .string("evaluation"), "message": .string("\(error)")])])
        }
        if let recordType = request.recordType, let error = try await schemaError(of: predicate, recordType: recordType, in: namespace) {
            return .object(["valid": .bool(false), "rules": rulesName, "error": error])
        }
        return .object(["valid": .bool(true), "rules": rulesName, "canonical": .string(predicate.predicateFormat)])
    }

    /// What the schema finds wrong with a predicate that parses, as a check's `error`; nil when nothing.
    private func schemaError(of predicate: FormatPredicate, recordType: String, in namespace: Namespace) async throws(ServerError) -> JSONValue? {
        let store = try await self.store(for: namespace)
        do {
            // The store's own checks of a query, without reading a record: the type, its fields
            // and, in production, their indexes.
            try await store.check(try RecordQuery(recordType: recordType, predicate: predicate))
        } catch {
            return Self.schemaErrorJSON(error)
        }
        guard let schema = try await run({ () async throws(RecordStoreError) in try await store.schema(for: recordType) }) else { return nil }
        return PredicateTypeCheck.mismatch(in: predicate, schema: schema)
    }

    /// A store's refusal of a query as a check's `error`.
    static func schemaErrorJSON(_ error: RecordStoreError) -> JSONValue {
        let message = JSONValue.string(error.description)
        switch error {
        case .unknownRecordType(_, let suggestions):
            return .object(["kind": .string("recordType"), "message": message, "suggestions": .array(suggestions.map(JSONValue.string))])
        case .unknownField(let field, _, let suggestions):
            return .object(["kind": .string("field"), "message": message, "field": .string(field), "suggestions": .array(suggestions.map(JSONValue.string))])
        case .notQueryable(let field, _), .notSortable(let field, _), .fieldNotSearchable(let field, _):
            return .object(["kind": .string("index"), "message": message, "field": .string(field)])
        case .notSearchable:
            return .object(["kind": .string("index"), "message": message])
        default:
            return .object(["kind": .string("evaluation"), "message": message])
        }
    }

    /// A predicate error as the `error` member of a check's answer.
    static func predicateErrorJSON(_ error: FormatPredicateError) -> JSONValue {
        switch error {
        case .syntax(let syntax):
            let characters = Array(syntax.source)
            let offset = min(max(syntax.offset, 0), characters.count)
            var line = 1
            var lineStart = 0
            for index in 0..<offset where characters[index].isNewline {
                line += 1
                lineStart = index + 1
            }
            let utf16Offset = characters[0..<offset].reduce(0) { $0 + $1.utf16.count }
            return .object([
                "kind": .string("syntax"), "message": .string(syntax.message),
                "expected": .string(syntax.expected), "found": .string(syntax.found),
                "offset": .integer(Int64(offset)), "utf16Offset": .integer(Int64(utf16Offset)),
                "line": .integer(Int64(line)), "column": .integer(Int64(offset - lineStart + 1)),
            ])
        case .argument(let position, _):
            return .object(["kind": .string("argument"), "message": .string(error.description), "argument": .integer(Int64(position))])
        case .ruleViolation(let violation):
            return .object(["kind": .string("rule"), "message": .string(violation.description), "fragment": .string(violation.fragment)])
        case .unboundVariable(let name):
            return .object(["kind": .string("variable"), "message": .string(error.description), "variable": .string(name)])
        case .evaluation, .budgetExceeded:
            return .object(["kind": .string("evaluation"), "message": .string(error.description)])
        }
    }
}
#endif

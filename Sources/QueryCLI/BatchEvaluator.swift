import Foundation
import PredicateLanguage

/// `query eval --batch`: one JSON request per input line, one JSON answer per line, in order.
///
/// A request is `{"format": "...", "args": [...], "object": ..., "variables": {...}, "rules": "full"}`;
/// the answer is `{"canonical": "...", "result": true}`, `{"canonical": "..."}` without an
/// object, or `{"error": "..."}`; the canonical form has the variables substituted. A line that
/// fails never stops the batch.
enum BatchEvaluator {
    /// Reads all of `input` line by line and writes the answers to `output`.
    static func run(input: FileHandle, output: FileHandle) {
        var reader = LineReader(handle: input)
        var pending = ""
        while let line = reader.nextLine() {
            pending += answer(to: line)
            pending += "\n"
            if pending.utf8.count > 64 * 1024 {
                output.write(Data(pending.utf8))
                pending = ""
            }
        }
        if !pending.isEmpty { output.write(Data(pending.utf8)) }
    }

    /// The answer line (without the newline) to one request line.
    static func answer(to line: some Collection<UInt8>) -> String {
        do {
            let request = try Value(jsonBytes: line)
            guard case .object(let fields) = request else {
                return errorLine("each line must be a JSON object with a \"format\" string")
            }
            guard case .string(let format)? = fields["format"] else {
                return errorLine("each line needs a \"format\" string")
            }
            let arguments: [Value]
            switch fields["args"] {
            case nil, .null?: arguments = []
            case .list(let list)?: arguments = list
            default: return errorLine("\"args\" must be an array")
            }
            var variables: [String: Value] = [:]
            switch fields["variables"] {
            case nil, .null?: break
            case .object(let object)?: variables = object
            default: return errorLine("\"variables\" must be an object")
            }
            var rules = PredicateRules.full
            switch fields["rules"] {
            case nil, .null?: break
            case .string(let name)?:
                guard let named = PredicateRules(argument: name) else {
                    return errorLine("\"rules\" must be \"full\", \"cloudkit\" or \"coredata\"")
                }
                rules = named
            default: return errorLine("\"rules\" must be a string")
            }
            // With variables, the canonical form is the substituted predicate, as Apple prints the
            // result of predicateWithSubstitutionVariables:.
            let predicate = try FormatPredicate(format: format, argumentArray: arguments).substituting(variables)
            try rules.validate(predicate)
            let canonical = Value.jsonQuoted(predicate.predicateFormat)
            guard let object = fields["object"] else {
                return "{\"canonical\":\(canonical)}"
            }
            let result = try CompiledPredicate(predicate).evaluate(value: object, variables: variables)
            return "{\"canonical\":\(canonical),\"result\":\(result)}"
        } catch let error as JSONParsingError {
            return errorLine("invalid JSON: \(error.description)")
        } catch {
            return errorLine(String(describing: error))
        }
    }

    private static func errorLine(_ message: String) -> String {
        "{\"error\":\(Value.jsonQuoted(message))}"
    }
}

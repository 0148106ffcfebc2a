import ArgumentParser
import Foundation
import PredicateLanguage

/// `query eval`: evaluates a predicate against a JSON object, or a stream of JSON lines with `--batch`.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate a predicate against a JSON object and print true or false.",
        discussion: """
            Example:
              query eval 'population > 100000 AND name BEGINSWITH[c] "s"' --object '{"name": "Sapporo", "population": 1973395}'
              true

            With --var, the template variables are substituted before the predicate runs.

            With --batch, reads one JSON object per line from standard input:
              {"format": "...", "args": [...], "object": {...}, "variables": {...}, "rules": "full"}
            (all but "format" optional) and writes one line per input line, in order:
              {"canonical": "...", "result": true}, {"canonical": "..."} when no object was given,
              or {"error": "..."}; the canonical form has the variables substituted.
            """
    )

    @Flag(help: "Read JSON lines from standard input and write one JSON result per line.")
    var batch = false

    @Argument(help: "The predicate format string.")
    var predicate: String?

    @Option(help: ArgumentHelp("The object to evaluate against, as JSON (SELF is this value).", valueName: "json"))
    var object: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A format argument as JSON (repeat the flag).", valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A template variable as NAME=JSON (repeat the flag).", valueName: "name=json"))
    var variables: [String] = []

    func validate() throws {
        if batch {
            if predicate != nil || object != nil || !arguments.isEmpty || !variables.isEmpty {
                throw ValidationError("--batch reads everything from standard input; give no predicate, --object, --arg or --var.")
            }
        } else {
            if predicate == nil { throw ValidationError("Missing the predicate to evaluate.") }
            if object == nil { throw ValidationError("Missing --object, the JSON value to evaluate against.") }
        }
    }

    func run() throws {
        if batch {
            BatchEvaluator.run(input: FileHandle.standardInput, output: FileHandle.standardOutput)
            return
        }
        guard let predicate, let object else { return }
        let values = try PredicateArguments.values(fromJSON: arguments, flag: "--arg")
        let parsed = try FormatPredicate(format: predicate, argumentArray: values)
        let target: Value
        do {
            target = try Value(jsonText: object)
        } catch let error as JSONParsingError {
            throw CommandFailure("--object is not valid JSON: \(error.description)")
        }
        let bindings = try EvalCommand.parseVariables(variables)
        // Substituted first, as predicateWithSubstitutionVariables: does; the variables are also
        // given to the evaluation for the ones substitution leaves in place (key components).
        let result = try CompiledPredicate(parsed.substituting(bindings)).evaluate(value: target, variables: bindings)
        print(result ? "true" : "false")
    }

    /// Reads `NAME=JSON` pairs.
    static func parseVariables(_ pairs: [String]) throws -> [String: Value] {
        var bindings: [String: Value] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandFailure("--var \(pair) must be NAME=JSON, e.g. --var 'LIMIT=100'")
            }
            var name = String(pair[..<equals])
            if name.hasPrefix("$") { name.removeFirst() }
            do {
                bindings[name] = try Value(jsonText: String(pair[pair.index(after: equals)...]))
            } catch let error as JSONParsingError {
                throw CommandFailure("--var \(name) is not valid JSON: \(error.description)")
            }
        }
        return bindings
    }
}

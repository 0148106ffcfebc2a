import ArgumentParser
import PredicateLanguage

/// `query check`: parses a predicate, checks it against a rule profile and prints its canonical form.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse a predicate, check it against a rule profile, and print its canonical form.",
        discussion: """
            Example:
              query check 'name BEGINSWITH[c] %@ AND population > %d' --arg '"sa"' --arg 100000
              name BEGINSWITH[c] "sa" AND population > 100000

            With --var, prints the predicate with its template variables substituted:
              query check 'population > $MINIMUM' --var MINIMUM=100000
              population > 100000
            """
    )

    @Option(help: "The rule profile to check against: full, cloudkit or coredata.")
    var rules: PredicateRules = .full

    @OptionGroup var predicate: PredicateArguments

    @Option(name: .customLong("var"), help: ArgumentHelp("A template variable as NAME=JSON (repeat the flag).", valueName: "name=json"))
    var variables: [String] = []

    func run() throws {
        let bindings = try EvalCommand.parseVariables(variables)
        let parsed = try predicate.parsedPredicate().substituting(bindings)
        try rules.validate(parsed)
        print(parsed.predicateFormat)
    }
}

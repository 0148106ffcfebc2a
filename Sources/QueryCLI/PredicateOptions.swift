import ArgumentParser
import PredicateLanguage

/// The rule profile named on the command line: `full`, `cloudkit` or `coredata`.
extension PredicateRules: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "full": self = .full
        case "cloudkit": self = .cloudKit
        case "coredata": self = .coreData
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["full", "cloudkit", "coredata"] }
}

/// The flags shared by commands that take a predicate: the format string and `--arg` values.
struct PredicateArguments: ParsableArguments {
    @Argument(help: "The predicate format string, e.g. 'name BEGINSWITH[c] %@ AND population > %d'.")
    var predicate: String

    @Option(name: .customLong("arg"), help: ArgumentHelp(
        "A format argument as JSON, one per %@/%d/%K... in order (repeat the flag).",
        valueName: "json"))
    var arguments: [String] = []

    /// Parses the JSON arguments and then the predicate.
    func parsedPredicate() throws -> FormatPredicate {
        try Self.parsedPredicate(predicate, arguments: arguments)
    }

    /// A format string parsed with `--arg` JSON values.
    static func parsedPredicate(_ format: String, arguments: [String]) throws -> FormatPredicate {
        let values = try PredicateArguments.values(fromJSON: arguments, flag: "--arg")
        return try FormatPredicate(format: format, argumentArray: values)
    }

    /// Reads each JSON text into a value; an error names the flag and its position.
    static func values(fromJSON texts: [String], flag: String) throws -> [Value] {
        try texts.enumerated().map { index, text in
            do {
                return try Value(jsonText: text)
            } catch let error as JSONParsingError {
                throw CommandFailure("\(flag) number \(index + 1) is not valid JSON: \(error.description)")
            }
        }
    }
}

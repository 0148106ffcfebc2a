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
    ///
    /// A number written with a fraction or an exponent is a double even when integral
    /// (`--arg 3.0` is the double 3, as `3.0` in a format string is), though JSON records read
    /// it as an integer: `j / %@` must divide as the user wrote it.
    static func values(fromJSON texts: [String], flag: String) throws -> [Value] {
        try texts.enumerated().map { index, text in
            do {
                let value = try Value(jsonText: text)
                if case .int(let integer) = value, text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                    return .double(Double(integer))
                }
                return value
            } catch let error as JSONParsingError {
                throw CommandFailure("\(flag) number \(index + 1) is not valid JSON: \(error.description)")
            }
        }
    }
}

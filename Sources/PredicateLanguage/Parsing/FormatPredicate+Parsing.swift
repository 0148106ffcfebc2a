/// Parsing a predicate from a format string.
extension FormatPredicate {
    /// Parses a predicate format string, binding `%@`, `%K`, `%d`, `%f`, ... to the arguments in order.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(format: "name BEGINSWITH[c] %@ AND population > %d", "sa", 100_000)
    /// let byKey = try FormatPredicate(format: "%K CONTAINS %@", "favoriteColors", "red")
    /// let none = try FormatPredicate(format: "deletedAt == %@", nil)
    /// ```
    ///
    /// - Throws: ``FormatPredicateError/syntax(_:)`` when the string is not valid syntax (with the
    ///   offset in characters), ``FormatPredicateError/argument(position:message:)`` when an argument
    ///   is missing, extra, or of the wrong type for its specifier.
    public init(format: String, _ arguments: (any FormatArgument)?...) throws {
        try self.init(format: format, argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
    }

    /// Parses a predicate format string with its arguments given as values.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(format: "quantity BETWEEN %@", argumentArray: [[1, 3]])
    /// ```
    public init(format: String, argumentArray: [Value]) throws {
        self = try FormatParsing.parse(format, arguments: argumentArray) { parser in
            try parser.parseWholePredicate()
        }
    }
}

/// Parsing an expression from a format string.
extension FormatExpression {
    /// Parses an expression format string, binding format arguments in order.
    ///
    /// ```swift
    /// let expression = try FormatExpression(format: "price * %d", 2)
    /// // .arithmetic(.multiply, .keyPath("price"), .constant(2))
    /// ```
    ///
    /// - Throws: ``FormatPredicateError/syntax(_:)`` or ``FormatPredicateError/argument(position:message:)``.
    public init(format: String, _ arguments: (any FormatArgument)?...) throws {
        try self.init(format: format, argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
    }

    /// Parses an expression format string with its arguments given as values.
    ///
    /// ```swift
    /// let expression = try FormatExpression(format: "%K.@count", argumentArray: ["tags"])
    /// ```
    public init(format: String, argumentArray: [Value]) throws {
        self = try FormatParsing.parse(format, arguments: argumentArray) { parser in
            try parser.parseWholeExpression()
        }
    }
}

/// Runs the parser over the UTF-8 bytes of a format string and turns lexer and
/// parser failures into ``FormatPredicateError/syntax(_:)`` with character offsets.
enum FormatParsing {
    static func parse<Result>(
        _ source: String, arguments: [Value], _ body: (inout Parser) throws -> Result
    ) throws(FormatPredicateError) -> Result {
        var source = source
        do {
            return try source.withUTF8 { bytes in
                var parser = try Parser(bytes: bytes, arguments: arguments)
                return try body(&parser)
            }
        } catch let failure as ParseFailure {
            throw FormatPredicateError.syntax(failure.syntaxError(in: source))
        } catch let error as FormatPredicateError {
            throw error
        } catch {
            throw FormatPredicateError.evaluation("unexpected parser failure: \(error)")
        }
    }
}

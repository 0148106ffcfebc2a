/// JSON text that could not be read, and where: the one error of the package's JSON reader,
/// whether it reads into ``Value`` (``Value/init(jsonText:)``) or into ``JSONValue``
/// (``JSONValue/init(parsing:)``).
///
/// ```swift
/// do { _ = try Value(jsonText: "[1, 2") }
/// catch let error as JSONParsingError { print(error) }  // expected ',' or ']' in an array, found the end of the input (at byte 5)
/// ```
public struct JSONParsingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The byte offset in the JSON text where it went wrong.
    public var offset: Int

    /// Creates an error.
    ///
    /// ```swift
    /// JSONParsingError(message: "unterminated string", offset: 4).description   // unterminated string (at byte 4)
    /// ```
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message with its offset: `unterminated string (at byte 4)`.
    public var description: String {
        "\(message) (at byte \(offset))"
    }
}

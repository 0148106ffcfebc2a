/// JSON text that could not be read as a ``Value``.
///
/// ```swift
/// do { _ = try Value(jsonText: "[1, 2") }
/// catch let error as ValueJSONError { print(error) }  // expected ',' or ']' in an array, found the end of the input (at byte 5)
/// ```
public struct ValueJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The byte offset in the JSON text where it went wrong.
    public var offset: Int

    /// Creates an error.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String {
        "\(message) (at byte \(offset))"
    }
}

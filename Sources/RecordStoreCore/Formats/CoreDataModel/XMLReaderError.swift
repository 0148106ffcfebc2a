/// What is wrong with an XML document: malformed text, or a construct the reader refuses (a
/// document type declaration), at a line and column (both from 1; the column counts Unicode
/// scalars, and a CR LF pair ends one line).
///
/// ```swift
/// do {
///     _ = try XMLElementReader.read("<model><entity></model>")
/// } catch {
///     print(error)   // line 1, column 17: the end tag '</model>' does not close '<entity>' (line 1, column 8)
/// }
/// ```
package struct XMLReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the error, from 1.
    package var line: Int
    /// The column of the error, from 1, in Unicode scalars.
    package var column: Int
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The message: `line 3, column 12: …`.
    package var description: String {
        "line \(line), column \(column): \(message)"
    }
}

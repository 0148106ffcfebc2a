/// A place in a text: its line and column, both from 1, the column counting Unicode scalars. The
/// schema-language lexer moves it past each scalar it reads.
struct TextPosition: Sendable, Hashable {
    /// The line, from 1.
    var line = 1
    /// The column, from 1, in Unicode scalars.
    var column = 1

    /// Moves past `scalar`: a line feed starts the next line.
    mutating func pass(_ scalar: Unicode.Scalar) {
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
}

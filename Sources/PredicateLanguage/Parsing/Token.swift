/// One lexical token of a format string: its kind and the byte range of its text.
///
/// Tokens are small values that point into the UTF-8 bytes of the source; the
/// parser turns the bytes into strings only when it builds a tree node.
struct Token {
    /// What kind of token this is.
    var kind: TokenKind
    /// The byte offset of the first byte of the token's text (after `#`, `$` or the opening quote).
    var start: Int
    /// The byte offset just past the token's text (before the closing quote).
    var end: Int
    /// The byte offset where the token begins in the source, including any `#`, `$` or quote.
    var sourceStart: Int
}

/// The kinds of tokens of the predicate format language.
enum TokenKind: Equatable {
    /// The end of the input.
    case end
    /// A name: `name`, `#IN` (a reserved word used as a key).
    case identifier
    /// A reserved word such as `AND`, `BEGINSWITH`, `NULL` (matched case-insensitively).
    case keyword(Keyword)
    /// A function selector with colons: `abs:`, `raise:toPower:`.
    case selector
    /// A quoted string; `hasEscapes` says whether the lexer decoded escape sequences.
    case string(hasEscapes: Bool)
    /// A number literal.
    case number(NumberNotation)
    /// `$name`: a template variable.
    case variable
    /// `@count`, `@sum`, ...: a collection operator.
    case collectionOperator
    /// `%@`, `%K`, `%d`, `%f`, ...
    case formatSpecifier(FormatSpecifier)
    case leftParenthesis, rightParenthesis, leftBrace, rightBrace, leftBracket, rightBracket
    case comma, dot
    case plus, minus, star, slash, doubleStar
    /// `=` or `==`
    case equal
    /// `!=` or `<>`
    case notEqual
    case less, lessOrEqual, greater, greaterOrEqual
    /// `&`: bitwise and.
    case ampersand
    /// `|`: bitwise or.
    case bar
    /// `^`: bitwise exclusive or.
    case caret
    /// `<<`
    case shiftLeft
    /// `>>`
    case shiftRight
    /// `<null>`: a null that arrived as a value (Apple's `NSNull`), as it prints.
    case nullValue
    /// `&&`
    case doubleAmpersand
    /// `||`
    case doubleBar
    /// `!`
    case exclamation
    /// `:=`
    case assignment
}

/// How a number literal is written.
enum NumberNotation: Equatable {
    case decimalInteger
    case hexadecimal
    case octal
    case binary
    /// With a fraction or an exponent.
    case floatingPoint

    /// The radix of an integer notation.
    var radix: UInt64 {
        switch self {
        case .hexadecimal: 16
        case .octal: 8
        case .binary: 2
        case .decimalInteger, .floatingPoint: 10
        }
    }
}


/// The reserved words of the format language.
enum Keyword: Equatable {
    case and, or, not
    case any, some, all, noneModifier
    case `in`, like, matches, beginsWith, endsWith, contains, between, utiConformsTo, utiEquals
    case truePredicate, falsePredicate
    case `true`, yes, `false`, no, null, `nil`, `self`
    case first, last, size
    case subquery, function, ternary, cast
}

import Foundation

/// A recursive-descent parser for the predicate format language.
///
/// The parser reads tokens from a ``Lexer`` one at a time (one token of lookahead)
/// and builds ``FormatPredicate`` and ``FormatExpression`` trees. It never
/// backtracks: the content of a parenthesis is parsed once, as a predicate or an
/// expression depending on what follows it (see ``parseParenthesizedContent()``).
/// Chains of `AND`, `OR`, `+`, `*`, and aggregate members are parsed by loops;
/// every construct that recurses (parentheses, function arguments, aggregates,
/// `NOT`, unary minus, `**`) counts towards a nesting limit, so no input can
/// exhaust the stack.
struct Parser {
    /// The deepest nesting of parentheses, function arguments, aggregates, `NOT` and unary minus accepted.
    static let maximumDepth = 200

    private var lexer: Lexer
    private var bytes: UnsafeBufferPointer<UInt8> { lexer.bytes }
    /// The token being looked at.
    private var current: Token
    /// The end offset of the token consumed last.
    private var previousEnd = 0
    private var depth = 0
    private var arguments: ArgumentBinder

    init(bytes: UnsafeBufferPointer<UInt8>, arguments: [Value]) throws(ParseFailure) {
        lexer = Lexer(bytes: bytes)
        current = try lexer.next()
        self.arguments = ArgumentBinder(values: arguments)
    }

    // MARK: - Entry points

    /// Parses a whole predicate and checks that the input is used up. Arguments beyond the
    /// specifiers are ignored, as `predicateWithFormat:` ignores them.
    mutating func parseWholePredicate() throws -> FormatPredicate {
        let predicate = try parseOr()
        guard current.kind == .end else {
            throw failure(expected: "AND, OR or the end of the input")
        }
        return predicate
    }

    /// Parses a whole expression and checks that the input is used up (extra arguments are ignored).
    mutating func parseWholeExpression() throws -> FormatExpression {
        let expression = try parseExpression()
        guard current.kind == .end else {
            throw failure(expected: "an operator or the end of the input")
        }
        return expression
    }

    // MARK: - Tokens

    private mutating func advance() throws(ParseFailure) {
        previousEnd = current.end
        current = try lexer.next()
    }

    private func isKeyword(_ keyword: Keyword) -> Bool {
        current.kind == .keyword(keyword)
    }

    /// The source text of a token.
    private func text(of token: Token) -> String {
        Lexer.text(bytes, token.start, token.end)
    }

    /// A short excerpt of the source, for messages.
    private func excerpt(_ start: Int, _ end: Int) -> String {
        let limit = 40
        if end - start <= limit { return Lexer.text(bytes, start, end) }
        return String(Lexer.text(bytes, start, start + limit).dropLast()) + "..."
    }

    /// How a token is named in error messages.
    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: "the end of the input"
        case .string: "a string"
        default: "'\(excerpt(token.sourceStart, token.end))'"
        }
    }

    private func failure(expected: String) -> ParseFailure {
        ParseFailure(expected: expected, found: describe(current), byteOffset: current.sourceStart)
    }

    private mutating func expect(_ kind: TokenKind, _ expected: @autoclosure () -> String) throws(ParseFailure) {
        guard current.kind == kind else { throw failure(expected: expected()) }
        try advance()
    }

    private mutating func enterNesting() throws(ParseFailure) {
        depth += 1
        if depth > Parser.maximumDepth {
            throw ParseFailure(
                expected: "at most \(Parser.maximumDepth) levels of nesting",
                found: "nesting deeper than \(Parser.maximumDepth) levels", byteOffset: current.sourceStart)
        }
        if depth >= Parser.stackCheckDepth, depth % 4 == 0 { try checkRemainingStack() }
    }

    /// From this depth on, every fourth level checks that the thread's stack has room left.
    private static let stackCheckDepth = 24
    /// The stack kept free for the levels between two checks and for reporting the error.
    private static let stackReserve: UInt = 160 * 1024
    /// The bounds of the thread's stack, looked up the first time they are needed.
    private var stackBounds: ClosedRange<UInt>?? = .none

    private mutating func checkRemainingStack() throws(ParseFailure) {
        if stackBounds == nil { stackBounds = .some(StackLimit.currentThreadStackBounds()) }
        guard case .some(.some(let bounds)) = stackBounds else { return }
        let pointer = StackLimit.approximateStackPointer()
        // A local outside the stack (AddressSanitizer's fake stack) says nothing about the
        // headroom: rely on the depth limit alone then.
        guard bounds.contains(pointer) else { return }
        if pointer - bounds.lowerBound < Parser.stackReserve {
            throw ParseFailure(
                expected: "less deeply nested input",
                found: "nesting too deep for the thread's stack (\(depth) levels)", byteOffset: current.sourceStart)
        }
    }

    /// A chain of left-associative operators (`a + b + c`) builds a tree as deep as the
    /// chain is long, so each operator of a chain counts as one more level of nesting.
    private func checkChainLength(_ chainLength: inout Int) throws(ParseFailure) {
        chainLength += 1
        if depth + chainLength > Parser.maximumDepth {
            throw ParseFailure(
                expected: "at most \(Parser.maximumDepth) levels of nesting",
                found: "nesting deeper than \(Parser.maximumDepth) levels", byteOffset: current.sourceStart)
        }
    }

    private mutating func leaveNesting() {
        depth -= 1
    }

    // MARK: - Predicates

    /// predicate := and (('OR' | '||') and)*
    private mutating func parseOr() throws -> FormatPredicate {
        try continueOr(try parseAnd())
    }

    private mutating func continueOr(_ first: consuming FormatPredicate) throws -> FormatPredicate {
        guard isKeyword(.or) || current.kind == .doubleBar else { return first }
        var members: [FormatPredicate] = []
        members.reserveCapacity(4)
        members.append(first)
        while isKeyword(.or) || current.kind == .doubleBar {
            try advance()
            members.append(try parseAnd())
        }
        return .or(members)
    }

    /// and := not (('AND' | '&&') not)*
    private mutating func parseAnd() throws -> FormatPredicate {
        try continueAnd(try parseNot())
    }

    private mutating func continueAnd(_ first: consuming FormatPredicate) throws -> FormatPredicate {
        guard isKeyword(.and) || current.kind == .doubleAmpersand else { return first }
        var members: [FormatPredicate] = []
        members.reserveCapacity(4)
        members.append(first)
        while isKeyword(.and) || current.kind == .doubleAmpersand {
            try advance()
            members.append(try parseNot())
        }
        return .and(members)
    }

    /// not := ('NOT' | '!') not | unit
    private mutating func parseNot() throws -> FormatPredicate {
        if isKeyword(.not) || current.kind == .exclamation {
            try enterNesting()
            try advance()
            let negated = try parseNot()
            leaveNesting()
            return .not(negated)
        }
        switch try parseUnitOrExpression() {
        case .predicate(let predicate):
            return predicate
        case .expression(_, let start):
            throw failure(expected: "a comparison operator after '\(excerpt(start, previousEnd))'")
        }
    }

    /// What a unit of a predicate turned out to be.
    private enum Unit {
        case predicate(FormatPredicate)
        /// An expression not followed by a comparison operator, with the byte offset where it started.
        case expression(FormatExpression, start: Int)
    }

    /// Parses a predicate unit (a comparison, `TRUEPREDICATE`, `NOT ...`, a parenthesized
    /// group) or, when no comparison operator follows, returns the bare expression.
    private mutating func parseUnitOrExpression() throws -> Unit {
        switch current.kind {
        case .keyword(.truePredicate):
            try advance()
            return .predicate(.constant(true))
        case .keyword(.falsePredicate):
            try advance()
            return .predicate(.constant(false))
        case .keyword(.not), .exclamation:
            return .predicate(try parseNot())
        case .keyword(let keyword) where keyword == .any || keyword == .some || keyword == .all || keyword == .noneModifier:
            try advance()
            let start = current.sourceStart
            let left = try parseExpression()
            guard comparisonOperator() != nil else {
                throw failure(expected: "a comparison operator after '\(excerpt(start, previousEnd))'")
            }
            let modifier: ComparisonModifier = keyword == .all ? .all : .any
            let comparison = FormatPredicate.comparison(try parseComparison(left, modifier: modifier))
            return .predicate(keyword == .noneModifier ? .not(comparison) : comparison)
        case .leftParenthesis:
            let start = current.sourceStart
            switch try parseParenthesized() {
            case .predicate(let group):
                return .predicate(group)
            case .expression(let content):
                let expression = try parseExpression(startingWith: content)
                return try comparisonOrExpression(expression, start: start)
            }
        default:
            let start = current.sourceStart
            let expression = try parseExpression()
            return try comparisonOrExpression(expression, start: start)
        }
    }

    private mutating func comparisonOrExpression(_ left: consuming FormatExpression, start: Int) throws -> Unit {
        guard comparisonOperator() != nil else { return .expression(left, start: start) }
        return .predicate(.comparison(try parseComparison(left, modifier: .direct)))
    }

    /// What a parenthesis held.
    private enum ParenthesizedContent {
        case predicate(FormatPredicate)
        case expression(FormatExpression)
    }

    /// Parses `( ... )` once, whatever it holds: a predicate group, an expression,
    /// or a comma-separated list (an aggregate).
    private mutating func parseParenthesized() throws -> ParenthesizedContent {
        try enterNesting()
        try advance()
        let content = try parseParenthesizedContent()
        try expect(.rightParenthesis, "')'")
        leaveNesting()
        return content
    }

    /// The content of a parenthesis: parse an expression; when a comparison operator
    /// follows, finish the comparison and continue with `AND`/`OR` inside the group.
    private mutating func parseParenthesizedContent() throws -> ParenthesizedContent {
        switch try parseUnitOrExpression() {
        case .predicate(let first):
            return .predicate(try continueOr(try continueAnd(first)))
        case .expression(let first, _):
            guard current.kind == .comma else { return .expression(first) }
            var members = [first]
            while current.kind == .comma {
                try advance()
                members.append(try parseExpression())
            }
            return .expression(FormatExpression.aggregateOrList(members))
        }
    }

    // MARK: - Comparisons

    /// The operator of the current token, when it is a comparison operator.
    private func comparisonOperator() -> ComparisonOperator? {
        switch current.kind {
        case .equal: .equalTo
        case .notEqual: .notEqualTo
        case .less: .lessThan
        case .lessOrEqual: .lessThanOrEqualTo
        case .greater: .greaterThan
        case .greaterOrEqual: .greaterThanOrEqualTo
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.contains): .contains
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.in): .in
        case .keyword(.between): .between
        case .keyword(.utiConformsTo): .conformsTo
        case .keyword(.utiEquals): .typeEquals
        default: nil
        }
    }

    /// Parses the operator, its options and the right-hand side; the current token is the operator.
    private mutating func parseComparison(_ left: consuming FormatExpression, modifier: ComparisonModifier) throws -> ComparisonPredicate {
        guard let comparisonOperator = comparisonOperator() else {
            throw failure(expected: "a comparison operator")
        }
        let operatorToken = current
        try advance()
        var options: ComparisonOptions = []
        if current.kind == .leftBracket {
            try advance()
            options = try parseOptions()
            try expect(.rightBracket, "']' after the comparison options")
        }
        guard startsExpression(current.kind) else {
            throw failure(expected: "an expression after '\(text(of: operatorToken))'")
        }
        let right = try parseExpression()
        if comparisonOperator == .between {
            let count: Int? =
                switch right {
                case .aggregate(let members): members.count
                case .constant(.list(let members)): members.count
                default: nil
                }
            if let count, count != 2 {
                throw ParseFailure(
                    expected: "two bounds after BETWEEN, such as {1, 3}",
                    found: "\(count) \(count == 1 ? "value" : "values")", byteOffset: operatorToken.sourceStart)
            }
        }
        return ComparisonPredicate(left, comparisonOperator, right, modifier: modifier, options: options)
    }

    /// Parses the letters of `[cd]`: any combination of c, d, n, l in any case.
    private mutating func parseOptions() throws(ParseFailure) -> ComparisonOptions {
        let isName: Bool =
            switch current.kind {
            case .identifier, .keyword: true
            default: false
            }
        guard isName, current.sourceStart == current.start else {
            throw failure(expected: "comparison options (letters c, d, n or l)")
        }
        var options: ComparisonOptions = []
        for index in current.start..<current.end {
            switch bytes[index] | 0x20 {
            case UInt8(ascii: "c"): options.insert(.caseInsensitive)
            case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
            case UInt8(ascii: "n"): options.insert(.normalized)
            case UInt8(ascii: "l"): options.insert(.localeSensitive)
            default:
                throw failure(expected: "comparison options (letters c, d, n or l)")
            }
        }
        try advance()
        return options
    }

    /// Whether a token can start an expression.
    private func startsExpression(_ kind: TokenKind) -> Bool {
        switch kind {
        case .number, .string, .identifier, .selector, .variable, .collectionOperator, .formatSpecifier,
            .leftParenthesis, .leftBrace, .minus, .nullValue:
            return true
        case .keyword(let keyword):
            switch keyword {
            case .true, .yes, .false, .no, .null, .nil, .self, .subquery, .function, .ternary, .cast,
                .first, .last, .size:
                return true
            default:
                return false
            }
        default:
            return false
        }
    }

    // MARK: - Expressions

    /// Parses an expression. The common case, a lone key, literal or call followed by
    /// no arithmetic operator, takes a short path that skips the precedence levels.
    mutating func parseExpression() throws -> FormatExpression {
        switch current.kind {
        case .identifier, .string, .number, .selector:
            var operand = try parsePrimary()
            if current.kind == .dot || current.kind == .leftBracket {
                operand = try parsePostfixRest(operand, mergesKeys: true)
            }
            switch current.kind {
            case .plus, .minus, .star, .slash, .doubleStar, .ampersand, .bar, .caret, .shiftLeft, .shiftRight:
                return try parseExpression(startingWith: operand)
            default:
                return operand
            }
        default:
            return try parseExpression(startingWith: nil)
        }
    }

    /// expression := bitwiseXor ('|' bitwiseXor)*
    ///
    /// The bitwise operators bind looser than arithmetic and tighter than comparisons, in C's
    /// order: `|`, then `^`, then `&`, then `<<` and `>>` (see ``BitwiseOperator``). Each parses to
    /// the call of its built-in function (`a & b` is `bitwiseAnd:with:(a, b)`), as Apple's parser does.
    ///
    /// When `first` is given, it is the already parsed leading operand (the content of a
    /// parenthesis, or an operand parsed by the short path), whose postfix part is complete.
    mutating func parseExpression(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        try parseBitwise(level: 0, startingWith: first)
    }

    /// One level of the bitwise operators (0: `|`, 1: `^`, 2: `&`, 3: `<<` and `>>`), left-associative;
    /// below the last level come the additive operators.
    private mutating func parseBitwise(level: Int, startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        var left =
            level + 1 < BitwiseOperator.levels.count
            ? try parseBitwise(level: level + 1, startingWith: first) : try parseAdditive(startingWith: first)
        var chainLength = 0
        while let bitwiseOperator = BitwiseOperator(current.kind), bitwiseOperator.level == level {
            try checkChainLength(&chainLength)
            try advance()
            let right =
                level + 1 < BitwiseOperator.levels.count
                ? try parseBitwise(level: level + 1, startingWith: nil) : try parseAdditive(startingWith: nil)
            left = .function(bitwiseOperator.functionName, [left, right])
        }
        return left
    }

    /// additive := multiplicative (('+' | '-') multiplicative)*
    private mutating func parseAdditive(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        var left = try parseMultiplicative(startingWith: first)
        var chainLength = 0
        while true {
            let arithmeticOperator: ArithmeticOperator
            switch current.kind {
            case .plus: arithmeticOperator = .add
            case .minus: arithmeticOperator = .subtract
            default: return left
            }
            try checkChainLength(&chainLength)
            try advance()
            left = .arithmetic(arithmeticOperator, left, try parseMultiplicative(startingWith: nil))
        }
    }

    /// multiplicative := unary (('*' | '/') unary)*
    private mutating func parseMultiplicative(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        var left = try parseUnary(startingWith: first)
        var chainLength = 0
        while true {
            let arithmeticOperator: ArithmeticOperator
            switch current.kind {
            case .star: arithmeticOperator = .multiply
            case .slash: arithmeticOperator = .divide
            default: return left
            }
            try checkChainLength(&chainLength)
            try advance()
            left = .arithmetic(arithmeticOperator, left, try parseUnary(startingWith: nil))
        }
    }

    /// unary := '-' unary | power. A minus directly before a number literal folds into the constant.
    private mutating func parseUnary(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        if case .some = first { return try parsePower(startingWith: first) }
        guard current.kind == .minus else { return try parsePower(startingWith: nil) }
        try enterNesting()
        try advance()
        let result: FormatExpression
        if case .number(let notation) = current.kind {
            let literal = current
            try advance()
            if current.kind == .doubleStar {
                let base = FormatExpression.constant(try numberValue(literal, notation, negative: false))
                result = .negation(try parsePowerRest(base))
            } else {
                result = .constant(try numberValue(literal, notation, negative: true))
            }
        } else {
            result = .negation(try parseUnary(startingWith: nil))
        }
        leaveNesting()
        return result
    }

    /// power := postfix ('**' unary)?   (right-associative)
    private mutating func parsePower(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        try parsePowerRest(try parsePostfix(startingWith: first))
    }

    private mutating func parsePowerRest(_ base: consuming FormatExpression) throws -> FormatExpression {
        guard current.kind == .doubleStar else { return base }
        try enterNesting()
        try advance()
        let exponent = try parseUnary(startingWith: nil)
        leaveNesting()
        return .arithmetic(.power, base, exponent)
    }

    /// postfix := primary ('.' key | '[' subscript ']')*
    private mutating func parsePostfix(startingWith first: consuming FormatExpression?) throws -> FormatExpression {
        if let first { return try parsePostfixRest(first, mergesKeys: false) }
        if current.kind == .leftParenthesis {
            let open = current
            switch try parseParenthesized() {
            case .expression(let content):
                // A key after a parenthesized expression is a member access, not a longer key path.
                return try parsePostfixRest(content, mergesKeys: false)
            case .predicate:
                throw ParseFailure(
                    expected: "an expression", found: "a predicate in parentheses", byteOffset: open.sourceStart)
            }
        }
        return try parsePostfixRest(try parsePrimary(), mergesKeys: true)
    }

    /// The `.key` and `[subscript]` parts after an operand. Key paths merge their dotted
    /// components (`a.b` is the key path "a.b") when `mergesKeys` is true.
    private mutating func parsePostfixRest(_ base: consuming FormatExpression, mergesKeys: Bool) throws -> FormatExpression {
        var expression = base
        var mergesKeys = mergesKeys
        while true {
            switch current.kind {
            case .dot:
                try advance()
                let key: String
                switch current.kind {
                case .identifier, .keyword:
                    key = text(of: current)
                case .collectionOperator:
                    key = try collectionOperatorName(current)
                case .formatSpecifier(.keyPath):
                    // `%K` as a component: `ANY %K.%K == %@`, `$t.%K`.
                    guard case .keyPath(let path) = try arguments.bind(.keyPath, text: text(of: current)) else {
                        throw failure(expected: "a key name after '.'")
                    }
                    key = path
                case .variable:
                    // `$b` as a component: `$a.$b`, resolved at substitution or evaluation.
                    key = "$" + text(of: current)
                default:
                    throw failure(expected: "a key name, %K or a $VARIABLE after '.'")
                }
                try advance()
                expression = FormatExpression.appendingKey(expression, key, merging: mergesKeys)
                mergesKeys = true
            case .leftBracket:
                try enterNesting()
                try advance()
                let indexSubscript: IndexSubscript
                switch current.kind {
                case .keyword(.first), .keyword(.last), .keyword(.size):
                    indexSubscript = isKeyword(.first) ? .first : isKeyword(.last) ? .last : .size
                    try advance()
                default:
                    indexSubscript = .expression(try parseExpression())
                }
                try expect(.rightBracket, "']'")
                leaveNesting()
                expression = .index(expression, indexSubscript)
                mergesKeys = true
            default:
                return expression
            }
        }
    }


    /// The name of a collection operator (`@count`, `@sum`, ...). As Apple's parser, any `@name` is
    /// accepted here; an operator the evaluator does not know fails when the predicate is compiled for
    /// evaluation or planned, with an error that lists the known ones (``CollectionOperator/unknownOperatorError(_:in:)``).
    private func collectionOperatorName(_ token: Token) throws(ParseFailure) -> String {
        text(of: token)
    }

    /// primary := literal | key | variable | format argument | aggregate | function call
    private mutating func parsePrimary() throws -> FormatExpression {
        let token = current
        switch token.kind {
        case .number(let notation):
            try advance()
            return .constant(try numberValue(token, notation, negative: false))
        case .string(let hasEscapes):
            let value = hasEscapes ? lexer.decodedString : text(of: token)
            try advance()
            return .constant(.string(value))
        case .identifier:
            try advance()
            if current.kind == .leftParenthesis { return try parseBuiltinCall(token) }
            return .keyPath(text(of: token))
        case .selector:
            try advance()
            guard current.kind == .leftParenthesis else {
                throw failure(expected: "'(' after the function name '\(text(of: token))'")
            }
            return try parseBuiltinCall(token)
        case .variable:
            try advance()
            if current.kind == .assignment {
                throw ParseFailure(
                    expected: "an operator after '$\(text(of: token))' (assignment expressions are not supported)",
                    found: "':='", byteOffset: current.sourceStart)
            }
            return .variable(text(of: token))
        case .collectionOperator:
            let name = try collectionOperatorName(token)
            try advance()
            return .keyPath(name)
        case .formatSpecifier(let specifier):
            try advance()
            return try arguments.bind(specifier, text: text(of: token))
        case .leftBrace:
            return try parseAggregate()
        case .nullValue:
            try advance()
            return .nullValue
        case .keyword(let keyword):
            switch keyword {
            case .true, .yes:
                try advance()
                return .constant(.bool(true))
            case .false, .no:
                try advance()
                return .constant(.bool(false))
            case .null, .nil:
                try advance()
                return .constant(.null)
            case .self:
                try advance()
                return .evaluatedObject
            case .first, .last, .size:
                try advance()
                return .keyPath(text(of: token))
            case .subquery, .function, .ternary, .cast:
                try advance()
                guard current.kind == .leftParenthesis else { return .keyPath(text(of: token)) }
                switch keyword {
                case .subquery: return try parseSubquery()
                case .function: return try parseCustomFunction()
                case .ternary: return try parseTernary()
                default: return try parseCast()
                }
            default:
                throw failure(expected: "an expression")
            }
        default:
            throw failure(expected: "an expression")
        }
    }

    // MARK: - Aggregates

    /// aggregate := '{' (expression (',' expression)*)? '}'
    private mutating func parseAggregate() throws -> FormatExpression {
        try enterNesting()
        try advance()
        var members: [FormatExpression] = []
        if current.kind != .rightBrace {
            while true {
                members.append(try parseExpression())
                if current.kind == .comma {
                    try advance()
                    continue
                }
                guard current.kind == .rightBrace else { throw failure(expected: "',' or '}'") }
                break
            }
        }
        try advance()
        leaveNesting()
        return FormatExpression.aggregateOrList(members)
    }


    // MARK: - Functions

    /// Parses `(arguments)` of a call; the current token is `(`.
    private mutating func parseCallArguments() throws -> [FormatExpression] {
        try enterNesting()
        try advance()
        var arguments: [FormatExpression] = []
        if current.kind != .rightParenthesis {
            while true {
                arguments.append(try parseExpression())
                if current.kind == .comma {
                    try advance()
                    continue
                }
                guard current.kind == .rightParenthesis else { throw failure(expected: "',' or ')'") }
                break
            }
        }
        try advance()
        leaveNesting()
        return arguments
    }

    /// `now()`, `abs:(x)`, `raise:toPower:(2, 3)`: a call of a built-in function by selector.
    private mutating func parseBuiltinCall(_ nameToken: Token) throws -> FormatExpression {
        let name = text(of: nameToken)
        guard let function = BuiltinFunction.named(name) else {
            let suggestion = BuiltinFunction.named(name + ":").map { " (did you mean '\($0.name)'?)" } ?? ""
            throw ParseFailure(
                expected: "the name of a built-in function\(suggestion)", found: "the unknown function '\(name)'",
                byteOffset: nameToken.sourceStart)
        }
        let arguments = try parseCallArguments()
        // As Apple's functions, extra arguments are accepted (and printed) but not read; too few is an error.
        guard arguments.count >= function.arity else {
            throw ParseFailure(
                expected: "\(Parser.count(function.arity, "argument")) for '\(name)'",
                found: Parser.count(arguments.count, "argument"), byteOffset: nameToken.sourceStart)
        }
        return .function(name, arguments)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `FUNCTION(target, 'name', arguments...)`; the current token is `(`.
    private mutating func parseCustomFunction() throws -> FormatExpression {
        try enterNesting()
        try advance()
        let target = try parseExpression()
        try expect(.comma, "',' and the function name after the target of FUNCTION")
        guard case .string(let hasEscapes) = current.kind else {
            throw failure(expected: "the function name as a quoted string")
        }
        let name = hasEscapes ? lexer.decodedString : text(of: current)
        try advance()
        var arguments: [FormatExpression] = []
        while current.kind == .comma {
            try advance()
            arguments.append(try parseExpression())
        }
        try expect(.rightParenthesis, "',' or ')'")
        leaveNesting()
        return .customFunction(target: target, name: name, arguments: arguments)
    }

    /// `TERNARY(predicate, then, else)`; the current token is `(`.
    private mutating func parseTernary() throws -> FormatExpression {
        try enterNesting()
        try advance()
        let condition = try parseOr()
        try expect(.comma, "',' after the condition of TERNARY")
        let whenTrue = try parseExpression()
        try expect(.comma, "',' and the else value of TERNARY")
        let whenFalse = try parseExpression()
        try expect(.rightParenthesis, "')'")
        leaveNesting()
        return .ternary(condition, whenTrue, whenFalse)
    }

    /// `SUBQUERY(collection, $x, predicate)`; the current token is `(`.
    private mutating func parseSubquery() throws -> FormatExpression {
        try enterNesting()
        try advance()
        let collection = try parseExpression()
        try expect(.comma, "',' and the variable after the collection of SUBQUERY")
        guard current.kind == .variable else {
            throw failure(expected: "a variable such as $x as the second argument of SUBQUERY")
        }
        let variable = text(of: current)
        try advance()
        try expect(.comma, "',' and the predicate after the variable of SUBQUERY")
        let predicate = try parseOr()
        try expect(.rightParenthesis, "')'")
        leaveNesting()
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// `CAST(expression, 'Type')`; the current token is `(`.
    private mutating func parseCast() throws -> FormatExpression {
        try enterNesting()
        try advance()
        let operand = try parseExpression()
        try expect(.comma, "',' and the type name after the operand of CAST")
        let typeToken = current
        let typeName: String
        switch current.kind {
        case .string(let hasEscapes):
            typeName = hasEscapes ? lexer.decodedString : text(of: current)
            try advance()
        case .formatSpecifier(.object):
            try advance()
            guard case .constant(.string(let name)) = try arguments.bind(.object, text: text(of: typeToken)) else {
                throw ParseFailure(
                    expected: "a type name string for CAST", found: "a value that is not a string",
                    byteOffset: typeToken.sourceStart)
            }
            typeName = name
        default:
            throw failure(expected: "the type name of CAST as a quoted string, such as 'NSDate'")
        }
        try expect(.rightParenthesis, "')'")
        leaveNesting()
        guard let type = CastFolding.CastType(rawValue: typeName) else {
            throw ParseFailure(
                expected: "a cast type (NSString, NSNumber, NSDate, NSData, CLLocation or CKReference)",
                found: "'\(typeName)'", byteOffset: typeToken.sourceStart)
        }
        return CastFolding.fold(operand, to: type)
    }

    // MARK: - Numbers

    /// The value of a number literal, negated when `negative`.
    private func numberValue(_ token: Token, _ notation: NumberNotation, negative: Bool) throws(ParseFailure) -> Value {
        if notation == .floatingPoint {
            guard let value = Double(Lexer.text(bytes, token.start, token.end)) else {
                throw ParseFailure(expected: "a number", found: describe(token), byteOffset: token.sourceStart)
            }
            return .double(negative ? -value : value)
        }
        let radix = notation.radix
        var index = token.start
        if notation != .decimalInteger { index += 2 }
        var magnitude: UInt64 = 0
        var overflowed = false
        var approximate: Double = 0
        while index < token.end {
            guard let digit = Lexer.digitValue(bytes[index], radix: radix) else { break }
            if !overflowed {
                let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
                let (sum, overflow2) = shifted.addingReportingOverflow(digit)
                if overflow1 || overflow2 {
                    overflowed = true
                    approximate = Double(magnitude) * Double(radix) + Double(digit)
                } else {
                    magnitude = sum
                }
            } else {
                approximate = approximate * Double(radix) + Double(digit)
            }
            index += 1
        }
        if overflowed {
            if notation == .decimalInteger, let exact = Double(Lexer.text(bytes, token.start, token.end)) {
                approximate = exact
            }
            return .double(negative ? -approximate : approximate)
        }
        if magnitude <= UInt64(Int64.max) {
            let value = Int64(magnitude)
            return .int(negative ? -value : value)
        }
        if negative && magnitude == UInt64(Int64.max) + 1 {
            return .int(Int64.min)
        }
        return .double(negative ? -Double(magnitude) : Double(magnitude))
    }
}

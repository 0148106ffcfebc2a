import Testing
@testable import PredicateLanguage

/// The syntax error of a malformed format string, or nil when it parses or fails otherwise.
private func syntaxError(_ format: String, _ arguments: (any FormatArgument)?...) -> SyntaxError? {
    do {
        _ = try FormatPredicate(format: format, argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
        return nil
    } catch let error as FormatPredicateError {
        if case .syntax(let syntax) = error { return syntax }
        return nil
    } catch {
        return nil
    }
}

struct MalformedSyntaxCase: Sendable, CustomStringConvertible {
    let format: String
    let expected: String
    let found: String
    let offset: Int
    var description: String { format }
}

@Suite("Parser: syntax errors")
struct ParserErrorTests {
    static let cases: [MalformedSyntaxCase] = [
        .init(format: "", expected: "an expression", found: "the end of the input", offset: 0),
        .init(format: "name ==", expected: "an expression after '=='", found: "the end of the input", offset: 7),
        .init(format: "name", expected: "a comparison operator after 'name'", found: "the end of the input", offset: 4),
        .init(format: "(a > 1", expected: "')'", found: "the end of the input", offset: 6),
        .init(format: "(a + 1 AND b > 2)", expected: "')'", found: "'AND'", offset: 7),
        .init(format: "a == 1 b", expected: "AND, OR or the end of the input", found: "'b'", offset: 7),
        .init(format: "a == 1)", expected: "AND, OR or the end of the input", found: "')'", offset: 6),
        .init(format: "a == 'abc", expected: #"a closing "'""#, found: "an unterminated string", offset: 5),
        .init(format: "a == \"abc", expected: #"a closing '"'"#, found: "an unterminated string", offset: 5),
        .init(
            format: #"a == 'x\q'"#,
            expected: #"a valid escape sequence (\\, \", \', \n, \r, \t, \0, \uXXXX or \u{X})"#, found: #"'\q'"#, offset: 7),
        .init(
            format: #"a == '\uD800'"#,
            expected: #"a Unicode escape of the form \uXXXX or \u{X...} naming a valid scalar"#, found: #"'\uD800'"#,
            offset: 6),
        .init(
            format: "a == %%",
            expected: "an expression (a literal percent sign '%%' is only meaningful inside a quoted string)",
            found: "'%%'", offset: 5),
        .init(
            format: "a == %s",
            expected: "a supported format specifier (%@, %K, %d, %i, %ld, %lld, %u, %f, %lf, %g or %e)",
            found: "the unsupported specifier '%s'", offset: 5),
        .init(
            format: "a == %c",
            expected: "a supported format specifier (%@, %K, %d, %i, %ld, %lld, %u, %f, %lf, %g or %e)",
            found: "the unsupported specifier '%c'", offset: 5),
        .init(format: "a = = 1", expected: "an expression after '='", found: "'='", offset: 4),
        .init(format: "a == 1 AND", expected: "an expression", found: "the end of the input", offset: 10),
        .init(format: "a == 1 OR OR b == 2", expected: "an expression", found: "'OR'", offset: 10),
        .init(format: "AND a == 1", expected: "an expression", found: "'AND'", offset: 0),
        .init(format: "a LIKE[x] 'b'", expected: "comparison options (letters c, d, n or l)", found: "'x'", offset: 7),
        .init(format: "a LIKE[c 'b'", expected: "']' after the comparison options", found: "a string", offset: 9),
        .init(format: "foo(1) == 2", expected: "the name of a built-in function", found: "the unknown function 'foo'", offset: 0),
        .init(
            format: "abs(1) == 2", expected: "the name of a built-in function (did you mean 'abs:'?)",
            found: "the unknown function 'abs'", offset: 0),
        .init(format: "abs:() == 2", expected: "1 argument for 'abs:'", found: "0 arguments", offset: 0),
        .init(format: "x > add:to:(1)", expected: "2 arguments for 'add:to:'", found: "1 argument", offset: 4),
        .init(
            format: "$x := 1", expected: "an operator after '$x' (assignment expressions are not supported)",
            found: "':='", offset: 3),
        .init(format: "a == {1, 2", expected: "',' or '}'", found: "the end of the input", offset: 10),
        .init(format: "a == {1 2}", expected: "',' or '}'", found: "'2'", offset: 8),
        .init(format: "a[0 == 1", expected: "']'", found: "'=='", offset: 4),
        .init(format: "a. == 1", expected: "a key name, %K or a $VARIABLE after '.'", found: "'=='", offset: 3),
        .init(format: "$ == 1", expected: "a variable name after '$'", found: "a space", offset: 1),
        .init(format: "a & b", expected: "a comparison operator after 'a & b'", found: "the end of the input", offset: 5),
        .init(format: "FUNCTION(a, b) == 1", expected: "the function name as a quoted string", found: "'b'", offset: 12),
        .init(
            format: "SUBQUERY(a, x, x > 1).@count > 0",
            expected: "a variable such as $x as the second argument of SUBQUERY", found: "'x'", offset: 12),
        .init(
            format: "CAST(a, 'Foo') == 1",
            expected: "a cast type (NSString, NSNumber, NSDate, NSData, CLLocation or CKReference)", found: "'Foo'",
            offset: 8),
        .init(
            format: "self contains ‘smith’", expected: #"a straight quote (' or ") around a string"#,
            found: "the typographic quote '‘'", offset: 14),
        .init(
            format: "self contains 'bob' AND self contains “smith”", expected: #"a straight quote (' or ") around a string"#,
            found: "the typographic quote '“'", offset: 38),
        .init(format: "a == 0x", expected: "hexadecimal digits after '0x'", found: "the end of the input", offset: 7),
        .init(format: "a BETWEEN {1, 2, 3}", expected: "two bounds after BETWEEN, such as {1, 3}", found: "3 values", offset: 2),
        .init(format: "ANY tags", expected: "a comparison operator after 'tags'", found: "the end of the input", offset: 8),
        .init(format: "a == TRUEPREDICATE", expected: "an expression after '=='", found: "'TRUEPREDICATE'", offset: 5),
        .init(format: "é == 'x' AND ü", expected: "a comparison operator after 'ü'", found: "the end of the input", offset: 14),
        .init(format: "名前 == 'x' AND ~", expected: "an expression or an operator", found: "the unexpected character '~'", offset: 14),
        .init(format: "(a > 1) + 1 == 2", expected: "AND, OR or the end of the input", found: "'+'", offset: 8),
        .init(format: "abs:((a > 1)) == 1", expected: "an expression", found: "a predicate in parentheses", offset: 5),
        .init(format: "a IN", expected: "an expression after 'IN'", found: "the end of the input", offset: 4),
    ]

    @Test(arguments: cases)
    func malformedInput(_ malformed: MalformedSyntaxCase) {
        let error = syntaxError(malformed.format)
        #expect(error?.expected == malformed.expected)
        #expect(error?.found == malformed.found)
        #expect(error?.offset == malformed.offset)
        #expect(error?.source == malformed.format)
    }

    @Test func renderedDescriptionHasACaret() throws {
        let error = try #require(syntaxError("name BEGINSWITH[c] 'sa' AND population >"))
        #expect(
            error.description == """
                expected an expression after '>', found the end of the input at offset 40
                  name BEGINSWITH[c] 'sa' AND population >
                                                          ^
                """)
        #expect(
            FormatPredicateError.syntax(error).description
                == "expected an expression after '>', found the end of the input at offset 40\n  name BEGINSWITH[c] 'sa' AND population >\n                                          ^")
    }

    @Test func offsetsCountCharactersNotBytes() throws {
        // "👩‍👩‍👧" is one character of 18 bytes; "é" written as e + combining accent is one character.
        #expect(syntaxError("name == '👩‍👩‍👧' AND")?.offset == 15)
        #expect(syntaxError("e\u{301}e\u{301} == 'x' OR")?.offset == 12)
    }

    @Test func expressionParsingRequiresTheWholeInput() {
        #expect(throws: FormatPredicateError.self) { try FormatExpression(format: "a + 1 == 2") }
        do {
            _ = try FormatExpression(format: "a + 1 )")
            Issue.record("parsed")
        } catch let error as FormatPredicateError {
            guard case .syntax(let syntax) = error else { Issue.record("\(error)"); return }
            #expect(syntax.expected == "an operator or the end of the input")
            #expect(syntax.found == "')'")
            #expect(syntax.offset == 6)
        } catch {
            Issue.record("\(error)")
        }
    }
}

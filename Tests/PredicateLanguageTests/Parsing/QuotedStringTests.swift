import Foundation
import Testing
@testable import PredicateLanguage

/// What a quoted string may hold: any character but its quote, a backslash escape, or a raw line break.
@Suite("Quoted strings")
struct QuotedStringTests {
    @Test func aRawTabInsideQuotesIsPartOfTheString() throws {
        let predicate = try FormatPredicate(format: "a == 'x\ty'")
        #expect(predicate == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant("x\ty"))))
        #expect(predicate.predicateFormat == "a == \"x\ty\"")
    }

    @Test func aRawLineFeedInsideQuotesIsASyntaxError() {
        #expect(throws: FormatPredicateError.syntax(SyntaxError(
            expected: #"a closing "'" before the end of the line (write a line break inside a string as \n)"#,
            found: "a line break inside a quoted string", offset: 8, source: "a == 'ab\ncd'"))) {
            try FormatPredicate(format: "a == 'ab\ncd'")
        }
    }

    @Test func aRawCarriageReturnInsideQuotesIsASyntaxErrorWithACaret() {
        let source = "name == \"x\\ty\rz\""
        do {
            _ = try FormatPredicate(format: source)
            Issue.record("a raw carriage return inside quotes parsed")
        } catch let error as FormatPredicateError {
            guard case .syntax(let syntax) = error else {
                Issue.record("not a syntax error: \(error)")
                return
            }
            #expect(syntax.expected == #"a closing '"' before the end of the line (write a line break inside a string as \n)"#)
            #expect(syntax.found == "a line break inside a quoted string")
            #expect(syntax.offset == 13)
            #expect(syntax.description == """
                expected a closing '"' before the end of the line (write a line break inside a string as \\n), \
                found a line break inside a quoted string at offset 13
                  name == "x\\ty
                               ^
                """)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func escapedLineBreaksAreStillRead() throws {
        #expect(try FormatPredicate(format: #"a == 'x\ny\rz'"#) == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant("x\ny\rz"))))
    }
}

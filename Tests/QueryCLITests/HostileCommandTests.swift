import Foundation
import Testing

/// Hostile input through the `query` command line: SQL fragments, NUL bytes, invalid UTF-8,
/// overlong and deeply nested predicates, huge argument lists, catastrophic regular
/// expressions and tampered flags. Exit status: 0 success, 1 query error, 2 wrong usage.
@Suite("Hardening: hostile input to query check and query eval")
struct HostileCommandTests {
    /// The answer lines of `query eval --batch` for raw input bytes.
    private func batchLines(_ input: Data) async throws -> (status: Int32, lines: [String], standardError: String) {
        let outcome = try await CommandRunner.run(["eval", "--batch"], inputBytes: input)
        var lines = outcome.standardOutput.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return (outcome.status, lines, outcome.standardError)
    }

    // MARK: - SQL fragments and quotes

    @Test func sqlInAValueIsPrintedQuoted() async throws {
        let outcome = try await CommandRunner.run(["check", #"name == "x'; DROP TABLE t; --""#])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "name == \"x'; DROP TABLE t; --\"\n")
        #expect(outcome.standardError == "")
    }

    @Test func sqlThroughAnArgumentIsPrintedQuotedAndEscaped() async throws {
        let outcome = try await CommandRunner.run(["check", "name == %@", "--arg", #""\"; DROP TABLE records; --""#])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "name == \"\\\"; DROP TABLE records; --\"\n")
    }

    @Test func sqlThroughAKeyIsAnOrdinaryKey() async throws {
        let check = try await CommandRunner.run(["check", "%K == 1", "--arg", #""a; DROP TABLE""#])
        #expect(check.status == 0)
        #expect(check.standardOutput == "a; DROP TABLE == 1\n")
        let matching = try await CommandRunner.run(
            ["eval", "%K == 1", "--arg", #""a; DROP TABLE""#, "--object", #"{"a; DROP TABLE": 1, "a": 2}"#])
        #expect(matching.status == 0)
        #expect(matching.standardOutput == "true\n")
        let other = try await CommandRunner.run(["eval", "%K == 1", "--arg", #""a; DROP TABLE""#, "--object", #"{"a": 1}"#])
        #expect(other.standardOutput == "false\n")
    }

    @Test func sqlInTheRulesFieldOfABatchLineIsRejected() async throws {
        let input = #"{"format": "a == 1", "rules": "full; DROP TABLE t"}"# + "\n"
        let result = try await batchLines(Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.lines == [#"{"error":"\"rules\" must be \"full\", \"cloudkit\" or \"coredata\""}"#])
    }

    // MARK: - NUL bytes

    @Test func nulInsideAStringArgumentIsKeptAndEscaped() async throws {
        let outcome = try await CommandRunner.run(["check", "name == %@", "--arg", #""a\u0000b""#])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "name == \"a\\u0000b\"\n")
        let matched = try await CommandRunner.run(["eval", "name == %@", "--arg", #""a\u0000b""#, "--object", #"{"name": "a\u0000b"}"#])
        #expect(matched.standardOutput == "true\n")
    }

    @Test func nulBytesInBatchLines() async throws {
        var input = Data(#"{"format": "name == \"a\u0000b\"", "object": {"name": "a\u0000b"}}"#.utf8)
        input.append(0x0A)
        input.append(Data(#"{"format": "name == 1"#.utf8))
        input.append(0x00)
        input.append(Data(#" OR b == 2"}"#.utf8))
        input.append(0x0A)
        input.append(Data(#"{"format": "a == 1"}"#.utf8))
        input.append(0x0A)
        let result = try await batchLines(input)
        #expect(result.status == 0)
        #expect(result.lines.count == 3)
        #expect(result.lines.first == #"{"canonical":"name == \"a\\u0000b\"","result":true}"#)
        #expect(result.lines.dropFirst().first?.hasPrefix(#"{"error":"invalid JSON: "#) == true, "\(result.lines)")
        #expect(result.lines.last == #"{"canonical":"a == 1"}"#)
    }

    // MARK: - Invalid UTF-8

    @Test func invalidUTF8InBatchLinesKeepsLineCorrespondence() async throws {
        var input = Data(#"{"format": "a == 1", "object": {"a": 1}}"#.utf8)
        input.append(0x0A)
        // A lone continuation byte inside the format string.
        input.append(Data(#"{"format": "a == ""#.utf8))
        input.append(contentsOf: [0x80, 0x22, 0x7D, 0x0A])
        // A truncated two-byte sequence and an overlong encoding of '/' outside any string.
        input.append(contentsOf: [0xC3, 0x28, 0x0A, 0xC0, 0xAF, 0x0A])
        // Bytes that are never UTF-8, inside an object's key.
        input.append(Data(#"{"format": "a == 1", "object": {""#.utf8))
        input.append(contentsOf: [0xFF, 0xFE])
        input.append(Data(#"": 1}}"#.utf8))
        input.append(0x0A)
        input.append(Data(#"{"format": "a == 2", "object": {"a": 2}}"#.utf8))
        input.append(0x0A)
        let result = try await batchLines(input)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.lines.count == 6, "\(result.lines)")
        #expect(result.lines.first == #"{"canonical":"a == 1","result":true}"#)
        // Bytes outside strings break the JSON: an error line each.
        for line in result.lines.dropFirst().prefix(3) {
            #expect(line.hasPrefix(#"{"error":"invalid JSON: "#), "\(line)")
        }
        // Inside a string, invalid UTF-8 decodes leniently to U+FFFD: the key is "\u{FFFD}\u{FFFD}", not "a".
        #expect(result.lines.dropFirst(4).first == #"{"canonical":"a == 1","result":false}"#)
        #expect(result.lines.last == #"{"canonical":"a == 2","result":true}"#)
    }

    // MARK: - Overlong, deep and huge

    @Test func aOneMegabyteStringInABatchLine() async throws {
        let long = String(repeating: "0123456789", count: 104_858)
        let input = #"{"format": "name == \"\#(long)\"", "object": {"name": "\#(long)"}}"# + "\n"
            + #"{"format": "name == \"\#(long)\"", "object": {"name": "short"}}"# + "\n"
        let result = try await batchLines(Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.lines.count == 2)
        #expect(result.lines.first == #"{"canonical":"name == \"\#(long)\"","result":true}"#)
        #expect(result.lines.last == #"{"canonical":"name == \"\#(long)\"","result":false}"#)
    }

    @Test func deeplyNestedPredicatesAreAClearError() async throws {
        let format = String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000)
        let input = #"{"format": "\#(format)"}"# + "\n"
            + #"{"format": "\#(String(repeating: "NOT ", count: 20_000))a == 1"}"# + "\n"
            + #"{"format": "a == \#(String(repeating: "abs:(", count: 20_000))1"}"# + "\n"
        let result = try await batchLines(Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.lines.count == 3)
        for line in result.lines {
            #expect(line.hasPrefix(#"{"error":"expected at most 200 levels of nesting, found nesting deeper than 200 levels at offset "#), "\(line.prefix(200))")
        }
        let check = try await CommandRunner.run(["check", String(repeating: "(", count: 50_000)])
        #expect(check.status == 1)
        #expect(check.standardError.hasPrefix("error: expected at most 200 levels of nesting, found nesting deeper than 200 levels at offset 200\n"))
    }

    @Test func aHundredThousandMembersThroughABatchArgument() async throws {
        let members = (0..<100_000).map(String.init).joined(separator: ",")
        let input = #"{"format": "id IN %@", "args": [[\#(members)]], "object": {"id": 99999}}"# + "\n"
            + #"{"format": "id IN %@", "args": [[\#(members)]], "object": {"id": 100000}}"# + "\n"
            + #"{"format": "id IN {\#(members)}", "object": {"id": 12345}}"# + "\n"
        let result = try await batchLines(Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.lines.count == 3)
        let canonical = "id IN {" + (0..<100_000).map(String.init).joined(separator: ", ") + "}"
        #expect(result.lines == [
            #"{"canonical":"\#(canonical)","result":true}"#,
            #"{"canonical":"\#(canonical)","result":false}"#,
            #"{"canonical":"\#(canonical)","result":true}"#,
        ])
    }

    // MARK: - Regular expressions

    @Test func catastrophicBacktrackingIsStoppedWithAClearError() async throws {
        // The match runs under a deterministic work limit; running out of it is a clear error.
        let subject = String(repeating: "a", count: 30) + "!"
        let outcome = try await CommandRunner.run(["eval", "name MATCHES '(a+)+$'", "--object", #"{"name": "\#(subject)"}"#])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError == #"error: regular expression "(a+)+$" needed more than its work limit of 1000 units (ICU match-engine steps) to match a string of 31 UTF-16 code units; simplify the pattern or raise EvaluationOptions.regularExpressionLimits"# + "\n", "\(outcome.standardError)")
    }

    @Test func invalidRegularExpressionIsAClearError() async throws {
        let outcome = try await CommandRunner.run(["eval", "name MATCHES '(unclosed'", "--object", #"{"name": "x"}"#])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.hasPrefix(#"error: invalid regular expression "(unclosed" in MATCHES: "#), "\(outcome.standardError)")
    }

    // MARK: - Tampered flags

    @Test func tamperedArgumentJSONIsAQueryError() async throws {
        for text in ["[1,", #""unterminated"#, "{\"a\": }", "NaN", "01", #"{"$date": "yesterday"}"#, "\u{0}", "\"\\ud800\""] {
            let outcome = try await CommandRunner.run(["check", "a == %@", "--arg", text])
            #expect(outcome.status == 1, "\(text)")
            #expect(outcome.standardOutput == "", "\(text)")
            #expect(outcome.standardError.hasPrefix("error: --arg number 1 is not valid JSON: "), "\(text): \(outcome.standardError)")
        }
    }

    @Test func tooFewOrTooManyArgumentsAreAQueryError() async throws {
        let missing = try await CommandRunner.run(["check", "a == %@ AND b == %@", "--arg", "1"])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("error: format argument 2: "))
        let wrongKind = try await CommandRunner.run(["check", "%K == 1", "--arg", "42"])
        #expect(wrongKind.status == 1)
        #expect(wrongKind.standardError == "error: format argument 1: %K expects a non-empty string naming a key path, but an integer was given\n")
    }

    @Test func variableWithoutEqualsIsAQueryError() async throws {
        let object = #"{"a": 1}"#
        let bare = try await CommandRunner.run(["eval", "a == $X", "--var", "X", "--object", object])
        #expect(bare.status == 1)
        #expect(bare.standardError == "error: --var X must be NAME=JSON, e.g. --var 'LIMIT=100'\n")
        let nameless = try await CommandRunner.run(["eval", "a == $X", "--var", "=1", "--object", object])
        #expect(nameless.status == 1)
        #expect(nameless.standardError == "error: --var =1 must be NAME=JSON, e.g. --var 'LIMIT=100'\n")
        let badJSON = try await CommandRunner.run(["eval", "a == $X", "--var", "X=[", "--object", object])
        #expect(badJSON.status == 1)
        #expect(badJSON.standardError.hasPrefix("error: --var X is not valid JSON: "))
        let injected = try await CommandRunner.run(["eval", "a == $X", "--var", "X=1; DROP TABLE t", "--object", object])
        #expect(injected.status == 1)
        #expect(injected.standardError.hasPrefix("error: --var X is not valid JSON: "))
    }

    @Test func tamperedObjectIsAQueryError() async throws {
        let outcome = try await CommandRunner.run(["eval", "a == 1", "--object", #"{"a": 1"#])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.hasPrefix("error: --object is not valid JSON: "))
    }

    @Test func unknownRulesAreWrongUsage() async throws {
        for rules in ["sql", "", "cloudkit; DROP TABLE t", "FULL "] {
            let outcome = try await CommandRunner.run(["check", "--rules", rules, "a == 1"])
            #expect(outcome.status == 2, "\(rules)")
            #expect(outcome.standardOutput == "")
            #expect(outcome.standardError.hasPrefix("Error: The value '\(rules)' is invalid for '--rules <rules>'"), "\(outcome.standardError)")
        }
        let upperCase = try await CommandRunner.run(["check", "--rules", "CLOUDKIT", "a == 1"])
        #expect(upperCase.status == 0)
        #expect(upperCase.standardOutput == "a == 1\n")
    }
}

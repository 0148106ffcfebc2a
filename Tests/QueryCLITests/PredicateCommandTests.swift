import Foundation
import Testing

@Suite("query check and query eval")
struct PredicateCommandTests {
    @Test func checkPrintsTheCanonicalForm() async throws {
        let outcome = try await CommandRunner.run(["check", "name BEGINSWITH[c] %@ AND population > %d", "--arg", "\"sa\"", "--arg", "100000"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "name BEGINSWITH[c] \"sa\" AND population > 100000\n")
        #expect(outcome.standardError == "")
    }

    @Test func checkReportsSyntaxErrorsWithACaret() async throws {
        let outcome = try await CommandRunner.run(["check", "name == "])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.hasPrefix("error: expected "))
        #expect(outcome.standardError.contains("  name == \n"))
        #expect(outcome.standardError.hasSuffix("^\n"))
    }

    @Test func checkAppliesTheCloudKitRules() async throws {
        let rejected = try await CommandRunner.run(["check", "--rules", "cloudkit", "ALL tags == 'a'"])
        #expect(rejected.status == 1)
        #expect(rejected.standardError == "error: ALL is not supported in CloudKit queries: ALL tags == \"a\"\n")
        let accepted = try await CommandRunner.run(["check", "--rules", "cloudkit", "ANY favoriteColors = 'red'"])
        #expect(accepted.status == 0)
        #expect(accepted.standardOutput == "ANY favoriteColors == \"red\"\n")
    }

    @Test func wrongUsageExitsWithTwo() async throws {
        #expect(try await CommandRunner.run(["check"]).status == 2)
        #expect(try await CommandRunner.run(["check", "--rules", "sql", "a == 1"]).status == 2)
        #expect(try await CommandRunner.run(["eval", "a == 1"]).status == 2)
        #expect(try await CommandRunner.run(["frobnicate"]).status == 2)
        #expect(try await CommandRunner.run(["--help"]).status == 0)
    }

    @Test func badArgumentJSONIsAQueryError() async throws {
        let outcome = try await CommandRunner.run(["check", "name == %@", "--arg", "'single'"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.hasPrefix("error: --arg number 1 is not valid JSON: "))
    }

    @Test func evalPrintsTrueOrFalse() async throws {
        let object = #"{"name": "Sapporo", "population": 1973395, "tags": ["snow", "beer"]}"#
        let yes = try await CommandRunner.run(["eval", "population > %d AND name BEGINSWITH[c] 's'", "--arg", "100000", "--object", object])
        #expect(yes.status == 0)
        #expect(yes.standardOutput == "true\n")
        let no = try await CommandRunner.run(["eval", "ANY tags == $TAG", "--var", "TAG=\"sun\"", "--object", object])
        #expect(no.standardOutput == "false\n")
        let bound = try await CommandRunner.run(["eval", "ANY tags == $TAG", "--var", "TAG=\"beer\"", "--object", object])
        #expect(bound.standardOutput == "true\n")
        // `--arg 3.0` is a double, as `3.0` in the format string is: 4 / 3.0 > 1, where 4 / 3 is 1.
        let division = try await CommandRunner.run(["eval", "population / %@ > 657798", "--arg", "3.0", "--object", object])
        #expect(division.standardOutput == "true\n")
        let integerDivision = try await CommandRunner.run(["eval", "population / %@ > 657798", "--arg", "3", "--object", object])
        #expect(integerDivision.standardOutput == "false\n")
        let unbound = try await CommandRunner.run(["eval", "ANY tags == $TAG", "--object", object])
        #expect(unbound.status == 1)
        #expect(unbound.standardError.contains("$TAG"))
    }

    @Test func batchAnswersEveryLineInOrder() async throws {
        let input = """
            {"format": "population > %d", "args": [1000], "object": {"population": 5000}}
            {"format": "name ==[c] 'ÉCOLE'", "object": {"name": "école"}}
            {"format": "SELF > 3", "object": 2}
            {"format": "a = 1 AND b = 2 OR c = 3"}
            {"format": "ALL tags == 'x'", "rules": "cloudkit"}
            {"format": "name =="}
            not json
            {"format": "ANY tags == $T", "object": {"tags": ["x"]}, "variables": {"T": "x"}}

            """
        let outcome = try await CommandRunner.run(["eval", "--batch"], input: input)
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 9)
        #expect(lines[0] == #"{"canonical":"population > 1000","result":true}"#)
        #expect(lines[1] == #"{"canonical":"name ==[c] \"ÉCOLE\"","result":true}"#)
        #expect(lines[2] == #"{"canonical":"SELF > 3","result":false}"#)
        #expect(lines[3] == #"{"canonical":"(a == 1 AND b == 2) OR c == 3"}"#)
        #expect(lines[4] == #"{"error":"ALL is not supported in CloudKit queries: ALL tags == \"x\""}"#)
        #expect(lines[5].hasPrefix(#"{"error":"expected "#))
        #expect(lines[6].hasPrefix(#"{"error":"invalid JSON: "#))
        // With variables, the canonical form is the substituted predicate.
        #expect(lines[7] == #"{"canonical":"ANY tags == \"x\"","result":true}"#)
        #expect(lines[8] == "")
    }

    @Test func batchPrintsTheSubstitutedForm() async throws {
        let input = """
            {"format": "$a == 1", "variables": {"a": "a"}}
            {"format": "deletedAt == $when AND name == %@", "args": [null], "variables": {"when": null}}
            {"format": "a & $mask == $mask", "object": {"a": 7}, "variables": {"mask": 3}}
            {"format": "$a.$b == 'ABC'", "object": null, "variables": {"a": {"k": "ABC"}, "b": "k"}}

            """
        let outcome = try await CommandRunner.run(["eval", "--batch"], input: input)
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == #"{"canonical":"\"a\" == 1"}"#)
        #expect(lines[1] == #"{"canonical":"deletedAt == <null> AND name == <null>"}"#)
        #expect(lines[2] == #"{"canonical":"a & 3 == 3","result":true}"#)
        // The object constant prints as a cast of its JSON text; the key follows it.
        #expect(lines[3].hasPrefix(#"{"canonical":"CAST("#), "\(lines[3])")
        #expect(lines[3].hasSuffix(#", \"NSDictionary\").k == \"ABC\"","result":true}"#), "\(lines[3])")
        #expect(lines[4] == "")
    }

    @Test func checkSubstitutesVariables() async throws {
        let outcome = try await CommandRunner.run(["check", "population > $MINIMUM AND name == $NAME", "--var", "MINIMUM=100000", "--var", #"NAME="Sapporo""#])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "population > 100000 AND name == \"Sapporo\"\n")
        let null = try await CommandRunner.run(["check", "a == $X AND b == nil", "--var", "X=null"])
        #expect(null.standardOutput == "a == <null> AND b == nil\n")
        let badJSON = try await CommandRunner.run(["check", "a == $X", "--var", "X=["])
        #expect(badJSON.status == 1)
        #expect(badJSON.standardError.hasPrefix("error: --var X is not valid JSON: "))
    }

    @Test func checkIgnoresArgumentsBeyondTheSpecifiers() async throws {
        let outcome = try await CommandRunner.run(["check", "a == %@", "--arg", "1", "--arg", "2"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "a == 1\n")
        let null = try await CommandRunner.run(["check", "a == %@", "--arg", "null"])
        #expect(null.standardOutput == "a == <null>\n")
    }

    @Test func evalSubstitutesVariablesIncludingKeyComponents() async throws {
        let object = #"{"address": {"city": "Paris"}, "flags": 6}"#
        let outcome = try await CommandRunner.run(["eval", "address.$field == 'Paris' AND flags & $bit == $bit", "--var", #"field="city""#, "--var", "bit=2", "--object", object])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "true\n")
        let other = try await CommandRunner.run(["eval", "address.$field == 'Paris'", "--var", #"field="country""#, "--object", object])
        #expect(other.standardOutput == "false\n")
    }
}

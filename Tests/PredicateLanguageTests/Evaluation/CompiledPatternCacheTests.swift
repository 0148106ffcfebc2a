import Foundation
import Testing
@testable import PredicateLanguage

/// `MATCHES` patterns are compiled once per process while they stay among the recent ones.
@Suite("Compiled pattern cache")
struct CompiledPatternCacheTests {
    @Test func aPatternIsCompiledOnce() throws {
        let cache = CompiledPatternCache(capacity: 4)
        let first = try cache.compiled("[A-Z][a-z]+", caseInsensitive: false)
        let second = try cache.compiled("[A-Z][a-z]+", caseInsensitive: false)
        let folded = try cache.compiled("[A-Z][a-z]+", caseInsensitive: true)
        #expect(first === second)
        #expect(first !== folded)
        #expect(first.matchesWhole("Paris", limits: RegularExpressionLimits()) == .matched(true))
        #expect(first.matchesWhole("paris", limits: RegularExpressionLimits()) == .matched(false))
        #expect(folded.matchesWhole("paris", limits: RegularExpressionLimits()) == .matched(true))
    }

    @Test func aFullCacheStartsOver() throws {
        let cache = CompiledPatternCache(capacity: 2)
        let first = try cache.compiled("a", caseInsensitive: false)
        _ = try cache.compiled("b", caseInsensitive: false)
        _ = try cache.compiled("c", caseInsensitive: false)   // the cache was full: it empties first
        #expect(try cache.compiled("a", caseInsensitive: false) !== first)
    }

    @Test func invalidPatternsThrowWithICUsReasonAndAreNotKept() throws {
        let cache = CompiledPatternCache(capacity: 4)
        #expect(throws: PatternCompilationFailure.self) { try cache.compiled("a)(?:b", caseInsensitive: false) }
        do {
            _ = try cache.compiled("(unclosed", caseInsensitive: false)
            Issue.record("an unclosed group compiled")
        } catch {
            #expect(error.description == "not a valid ICU pattern (U_REGEX_MISMATCHED_PAREN at offset 9)")
        }
    }

    @Test func theWholeSubjectMustMatchWhateverThePatternHolds() throws {
        // A `(?x)` comment, an alternation and an end anchor inside the pattern cannot make a
        // partial match count: ICU's uregex_matches matches the whole subject.
        let comment = try RegularExpressionMatcher(pattern: "(?x)ab # comment")
        #expect(try comment.matches("ab"))
        #expect(try !comment.matches("abc"))
        let alternation = try RegularExpressionMatcher(pattern: "a|ab")
        #expect(try alternation.matches("ab"))
        #expect(try !alternation.matches("abc"))
    }

    @Test func oneMatcherServesManyThreadsAtOnce() async throws {
        let matcher = try RegularExpressionMatcher(pattern: "[a-z]+[0-9]{2}")
        let answers = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var matched = 0
                    for index in 0..<500 {
                        // Even indexes: letters then two digits (a match); odd ones end in a letter.
                        let subject = index % 2 == 0 ? "abc\(index % 90 + 10)" : "abc\(index + task)x"
                        if (try? matcher.matches(subject)) == true { matched += 1 }
                    }
                    return matched
                }
            }
            var total: [Int] = []
            for await count in group { total.append(count) }
            return total
        }
        #expect(answers == Array(repeating: 250, count: 8))
    }
}

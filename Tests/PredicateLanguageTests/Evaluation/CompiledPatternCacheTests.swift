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
        #expect(first.expression === second.expression)
        #expect(first.expression !== folded.expression)
        #expect(first.wrapped)
        #expect(first.expression.pattern == #"(?:[A-Z][a-z]+)\z"#)
    }

    @Test func aFullCacheStartsOver() throws {
        let cache = CompiledPatternCache(capacity: 2)
        let first = try cache.compiled("a", caseInsensitive: false)
        _ = try cache.compiled("b", caseInsensitive: false)
        _ = try cache.compiled("c", caseInsensitive: false)   // the cache was full: it empties first
        #expect(try cache.compiled("a", caseInsensitive: false).expression !== first.expression)
    }

    @Test func invalidPatternsThrowAndAreNotKept() throws {
        let cache = CompiledPatternCache(capacity: 4)
        #expect(throws: (any Error).self) { try cache.compiled("a)(?:b", caseInsensitive: false) }
        #expect(throws: (any Error).self) { try cache.compiled("[", caseInsensitive: false) }
    }

    @Test func aPatternThatCannotBeWrappedMatchesByRange() throws {
        // The `(?x)` comment would swallow the closing parenthesis of the wrapped form.
        let compiled = try CompiledPatternCache(capacity: 4).compiled("(?x)ab # comment", caseInsensitive: false)
        #expect(!compiled.wrapped)
        let matcher = try RegularExpressionMatcher(pattern: "(?x)ab # comment")
        #expect(try matcher.matches("ab"))
        #expect(try !matcher.matches("abc"))
    }
}

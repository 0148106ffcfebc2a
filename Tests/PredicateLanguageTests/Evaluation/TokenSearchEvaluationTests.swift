import Foundation
import Testing
@testable import PredicateLanguage

/// The token searches of an `AND` or `OR` are one search (``TokenSearch``): the text is read and
/// tokenized once however many words are asked for, and the answers are those of the comparisons
/// one by one.
@Suite("Evaluation: token searches gathered into one")
struct TokenSearchEvaluationTests {
    /// An object that counts how often its searchable text and its `description` are read.
    final class CountingObject: KeyValueReadable, @unchecked Sendable {
        let fields: [String: Value]
        private(set) var fullTextReads = 0
        private(set) var descriptionReads = 0

        init(_ fields: [String: Value]) {
            self.fields = fields
        }

        func value(forKey key: String) -> Value {
            if key == "description" { descriptionReads += 1 }
            return fields[key] ?? .null
        }

        func fullTextValues() -> [String] {
            fullTextReads += 1
            return fields.values.compactMap(\.stringValue)
        }
    }

    static let fields: [String: Value] = ["name": "Bob Smith", "description": "A café in Zürich, by the lake"]

    /// `count` made-up words, none in the object's text.
    static func absentWords(_ count: Int) -> [String] {
        (0..<count).map { "zq\($0)x" }
    }

    static func predicate(_ words: [String], _ format: String, joinedBy connective: String) throws -> FormatPredicate {
        try FormatPredicate(format: words.map { _ in format }.joined(separator: " \(connective) "), argumentArray: words.map(Value.string))
    }

    @Test func anOrOfAThousandSearchesReadsTheTextOnce() throws {
        let compiled = try CompiledPredicate(Self.predicate(Self.absentWords(999) + ["zurich"], "SELF CONTAINS %@", joinedBy: "OR"))
        let object = CountingObject(Self.fields)
        #expect(try compiled.evaluate(object) == true)
        #expect(object.fullTextReads == 1)
        let missing = CountingObject(Self.fields)
        #expect(try CompiledPredicate(Self.predicate(Self.absentWords(1_000), "SELF CONTAINS %@", joinedBy: "OR")).evaluate(missing) == false)
        #expect(missing.fullTextReads == 1)
    }

    @Test func anAndOfSearchesReadsTheTextOnce() throws {
        let object = CountingObject(Self.fields)
        let all = try CompiledPredicate(Self.predicate(["bob", "cafe", "lake", "zurich"], "SELF CONTAINS %@", joinedBy: "AND"))
        #expect(try all.evaluate(object) == true)
        #expect(object.fullTextReads == 1)
        let notAll = try CompiledPredicate(Self.predicate(["bob", "cafe", "geneva"], "SELF CONTAINS %@", joinedBy: "AND"))
        #expect(try notAll.evaluate(object) == false)
        #expect(object.fullTextReads == 2)
    }

    @Test func aFieldsTokenSearchReadsTheFieldOnce() throws {
        let format = "ANY tokenize:using:(description, nil) == %@"
        let object = CountingObject(Self.fields)
        #expect(try CompiledPredicate(Self.predicate(Self.absentWords(500) + ["lake"], format, joinedBy: "OR")).evaluate(object) == true)
        #expect(object.descriptionReads == 1)
        #expect(try CompiledPredicate(Self.predicate(["cafe", "zurich", "lake"], format, joinedBy: "AND")).evaluate(object) == true)
        #expect(try CompiledPredicate(Self.predicate(["cafe", "zurich", "bob"], format, joinedBy: "AND")).evaluate(object) == false)
        #expect(object.descriptionReads == 3)
    }

    @Test func searchesOfOneTextMergeAndOthersStayInPlace() throws {
        let predicate = try FormatPredicate(format: """
            SELF CONTAINS 'bob' AND age > 3 AND SELF CONTAINS 'new york' AND ANY tokenize:using:(name, nil) == 'smith' \
            AND ANY tokenize:using:(name, nil) IN {'x', 'y'}
            """)
        guard case .and(let parts) = predicate else { Issue.record("not an AND"); return }
        let gathered = TokenSearch.gather(parts, conjunction: true)
        #expect(gathered.count == 3)
        guard case .search(let text) = gathered[0], case .other(let other) = gathered[1], case .search(let name) = gathered[2] else {
            Issue.record("\(gathered)")
            return
        }
        #expect(text.target == .searchableText)
        #expect(text.groups == [["bob"], ["new", "york"]])
        #expect(text.parts == [parts[0], parts[2]])
        #expect(other == parts[1])
        #expect(name.groups == [["smith"], ["x", "y"]])
        #expect(name.wordCount == 3)

        guard case .or(let alternatives) = try FormatPredicate(format: "SELF CONTAINS 'x y' OR SELF CONTAINS 'c' OR SELF CONTAINS ''") else { return }
        guard case .search(let merged)? = TokenSearch.gather(alternatives, conjunction: false).first else { Issue.record("no search"); return }
        #expect(merged.groups == [["c", "x", "y"]])
    }

    /// Every combination answers as its comparisons do one by one, on records and on other
    /// objects (a string `SELF`, where `CONTAINS` is a substring test).
    @Test(arguments: [
        "SELF CONTAINS 'bob' AND SELF CONTAINS 'lake'",
        "SELF CONTAINS 'bob' AND SELF CONTAINS 'geneva'",
        "SELF CONTAINS 'geneva' OR SELF CONTAINS 'SMITH'",
        "SELF CONTAINS 'geneva' OR SELF CONTAINS 'paris'",
        "SELF CONTAINS '' OR SELF CONTAINS 'cafe'",
        "SELF CONTAINS '' AND SELF CONTAINS 'cafe'",
        "SELF CONTAINS 'the' AND SELF CONTAINS 'cafe'",
        "SELF CONTAINS 'bob smith' AND SELF CONTAINS 'geneva lake'",
        "ANY tokenize:using:(description, nil) == 'cafe' AND ANY tokenize:using:(description, nil) IN {'lake', 'sea'}",
        "ANY tokenize:using:(description, nil) == 'Cafe' OR ANY tokenize:using:(description, nil) == 'sea'",
        "ANY tokenize:using:(missing, nil) == 'a' OR ANY tokenize:using:(missing, nil) == 'b'",
        "NOT (SELF CONTAINS 'bob' AND SELF CONTAINS 'lake') OR SELF CONTAINS 'x' OR SELF CONTAINS 'y'",
    ])
    func gatheredSearchesAnswerAsTheirComparisonsDo(format: String) throws {
        let predicate = try FormatPredicate(format: format)
        let compiled = try CompiledPredicate(predicate)
        for object: Value in [.object(Self.fields), .string("bob smith near the lake"), .list(["bob", "lake"]), .object(["name": "x"])] {
            #expect(try compiled.evaluate(value: object) == one(predicate, object), "\(format) on \(object)")
        }
    }

    /// The predicate's answer with each comparison evaluated alone.
    private func one(_ predicate: FormatPredicate, _ object: Value) throws -> Bool {
        switch predicate {
        case .constant(let truth): truth
        case .comparison: try CompiledPredicate(predicate).evaluate(value: object)
        case .not(let inner): try !one(inner, object)
        case .and(let parts): try parts.allSatisfy { try one($0, object) }
        case .or(let parts): try parts.contains { try one($0, object) }
        }
    }
}

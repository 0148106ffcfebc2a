import Foundation
import Testing

/// Issue #27, item 8, as the issue saw it: `Ba\u0300makɔ` in an imported file came back from `find`
/// as `Bàmakɔ`, and `ANY alternatenames BEGINSWITH "Ba\u0300mak"` found nothing. The store keeps
/// the bytes of the file and compares the NFC forms.
@Suite("query import and find keep the bytes of the file")
struct StoredSpellingCommandTests {
    static func holds(_ output: String, _ text: String) -> Bool {
        Data(output.utf8).range(of: Data(text.utf8)) != nil
    }

    @Test func importedDecomposedTextComesBackFromFind() async throws {
        let database = try await CommandRunner.importedStore("spelling", recordType: "City", jsonLines: [
            #"{"id": "bamako", "name": "Ba\u0300mak\u0254", "alternatenames": ["Ba\u0300mako", "Bamako"]}"#,
            #"{"id": "paris", "name": "Paris", "alternatenames": ["Lutetia"]}"#,
        ])
        for predicate in [#"ANY alternatenames BEGINSWITH "Ba\u0300mak""#, #"name == "B\u00E0mak\u0254""#, #"name LIKE "B?mak*""#] {
            let found = try await CommandRunner.run(["find", "--db", database, "City", predicate, "--output", "jsonl"])
            #expect(found.status == 0, "\(predicate): \(found.standardError)")
            let lines = found.standardOutput.split(separator: "\n")
            #expect(lines.count == 1, "\(predicate): \(found.standardOutput)")
            #expect(Self.holds(found.standardOutput, "Ba\u{300}mak\u{254}"), "\(predicate): \(found.standardOutput)")
            #expect(Self.holds(found.standardOutput, "Ba\u{300}mako"), "\(predicate): \(found.standardOutput)")
            #expect(!Self.holds(found.standardOutput, "B\u{E0}mak"), "\(predicate): \(found.standardOutput)")
        }
    }
}

import Foundation
import TestSupport
import Testing

/// `query schema apply FILE.ckdb` and `query schema export [--format ckdb|json]` (issue #29), and
/// `query schema [show] [TYPE]` as before.
@Suite("query schema apply and export")
struct SchemaLanguageCommandTests {
    /// A new folder for one test; the caller removes it.
    private static func freshFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-language-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let schema = """
        DEFINE SCHEMA

            CREATE ROLE Moderator;

            RECORD TYPE City (
        \(CKDBSystemFields.lines)
                name            STRING QUERYABLE SEARCHABLE SORTABLE,
                population      INT64 QUERYABLE SORTABLE,
                location        LOCATION QUERYABLE,
                alternatenames  LIST<STRING>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    @Test("import --indexes points to the documentation article that describes the policies, which exists")
    func importIndexesHelpPointsToTheArticle() async throws {
        let help = try await CommandRunner.run(["import", "--help"])
        #expect(help.status == 0)
        // The help wraps at the terminal's width: compare with single spaces.
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains(#"automatic or all (every index a field's type can have); see "Indexes and searches" in RecordStoreCore's documentation."#))
        // The policies are described there (and in IndexPolicy), not in the help.
        #expect(!text.contains("queryable and searchable"))
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/RecordStoreCore/RecordStoreCore.docc/IndexesAndSearch.md")
        let headings = try String(contentsOf: article, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(headings.first == "# Indexes and searches")
        #expect(try String(contentsOf: article, encoding: .utf8).contains("`automatic`, which\nmakes strings queryable and searchable"))
    }

    @Test("apply prints what it did with grants and roles; export prints the store's schema and policy; apply of the export changes nothing")
    func applyThenExport() async throws {
        let folder = try Self.freshFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("store.sqlite").path
        let file = folder.appendingPathComponent("schema.ckdb")
        try Data(Self.schema.utf8).write(to: file)

        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, file.path])
        #expect(applied.status == 0, "\(applied.standardError)")
        #expect(applied.standardOutput == """
            Applied 1 record type (4 fields)
            Security: 1 role, 3 grants (enforced by query serve in the public database)

            """)

        let exported = try await CommandRunner.run(["schema", "export", "--db", database])
        #expect(exported.status == 0, "\(exported.standardError)")
        // The store keeps the roles and grants too: the export is the file as applied.
        let expected = Self.schema
        #expect(exported.standardOutput == expected)

        let exportFile = folder.appendingPathComponent("exported.ckdb")
        try Data(exported.standardOutput.utf8).write(to: exportFile)
        let reapplied = try await CommandRunner.run(["schema", "apply", "--db", database, exportFile.path])
        #expect(reapplied.standardOutput == "Applied 1 record type (4 fields)\nSecurity: 1 role, 3 grants (enforced by query serve in the public database)\n")
        #expect(try await CommandRunner.run(["schema", "export", "--db", database]).standardOutput == expected)

        let shown = try await CommandRunner.run(["schema", "--db", database, "City"])
        #expect(shown.standardOutput == """
            City
              name            string  queryable sortable searchable
              population      int64  queryable sortable
              location        location  queryable
              alternatenames  list of string\u{20}\u{20}

            """)
        #expect(try await CommandRunner.run(["schema", "show", "--db", database, "City"]).standardOutput == shown.standardOutput)
    }

    @Test("export --format json prints the same document as JSON")
    func exportJSON() async throws {
        let folder = try Self.freshFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("store.sqlite").path
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, "-"], input: "DEFINE SCHEMA RECORD TYPE Tag (label STRING SORTABLE);")
        #expect(applied.status == 0, "\(applied.standardError)")
        let exported = try await CommandRunner.run(["schema", "export", "--db", database, "--format", "json"])
        #expect(exported.status == 0, "\(exported.standardError)")
        let system = [("___createTime", "TIMESTAMP"), ("___createdBy", "REFERENCE"), ("___etag", "STRING"), ("___modTime", "TIMESTAMP"), ("___modifiedBy", "REFERENCE"), ("___recordID", "REFERENCE")]
        var fields = system.map { name, type in
            """
                    {
                      "isQueryable" : \(name == "___recordID"),
                      "isSearchable" : false,
                      "isSortable" : false,
                      "name" : "\(name)",
                      "type" : "\(type)"
                    }
            """
        }
        fields.append("""
                    {
                      "isQueryable" : false,
                      "isSearchable" : false,
                      "isSortable" : true,
                      "name" : "label",
                      "type" : "STRING"
                    }
            """)
        #expect(exported.standardOutput == """
            {
              "recordTypes" : [
                {
                  "fields" : [
            \(fields.joined(separator: ",\n"))
                  ],
                  "grants" : [

                  ],
                  "name" : "Tag"
                }
              ],
              "roles" : [

              ]
            }

            """)
    }

    @Test("A bad file exits with status 1 and a message naming the file, line and column")
    func badFile() async throws {
        let folder = try Self.freshFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("store.sqlite").path
        let file = folder.appendingPathComponent("bad.ckdb")
        try Data("DEFINE SCHEMA\n    RECORD TYPE City (\n        name STRNG\n    );\n".utf8).write(to: file)
        let outcome = try await CommandRunner.run(["schema", "apply", "--db", database, file.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError == "error: \(file.path): line 3, column 14: expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>), found 'STRNG'\n")

        let asset = folder.appendingPathComponent("asset.ckdb")
        try Data("DEFINE SCHEMA\n    RECORD TYPE City (\n        photo ASSET\n    );\n".utf8).write(to: asset)
        // An ASSET field applies: a reference field without indexes (an asset's value).
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, asset.path])
        #expect(applied.status == 0, "\(applied.standardError)")

        let missing = try await CommandRunner.run(["schema", "apply", "--db", database, folder.appendingPathComponent("none.ckdb").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("error: Cannot read '"))
    }
}

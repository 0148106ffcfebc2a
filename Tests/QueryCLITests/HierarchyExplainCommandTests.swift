import Foundation
import TestSupport
import Testing

/// `query find --explain` on a parent entity of a Core Data model prints the `UNION ALL`
/// statement that runs over its sub-entities, and SQLite's plan of it.
@Suite("query find --explain over a parent entity")
struct HierarchyExplainCommandTests {
    /// The staff model of the record store's tests: `Person` (abstract) over `Employee`, `Manager` and `Contractor`.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Staff.xcdatamodel").path

    @Test("find --explain on a parent entity prints the union, its arguments and SQLite's merge")
    func explainPrintsTheUnion() async throws {
        let database = TestFolders.file("hierarchy-explain", named: "staff.sqlite")
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, Self.model])
        #expect(applied.status == 0, "\(applied.standardError)")
        for (type, name, age) in [("Employee", "eli", 30), ("Manager", "mia", 50), ("Contractor", "cat", 40)] {
            let saved = try await CommandRunner.run(
                ["save", "--db", database, type], input: #"{"recordName": "\#(name)", "fields": {"name": "\#(name)", "age": \#(age)}}"# + "\n")
            #expect(saved.status == 0, "\(saved.standardError)")
        }
        let explained = try await CommandRunner.run(["find", "--db", database, "Person", "age >= 30", "--sort", "age", "--limit", "2", "--explain"])
        #expect(explained.status == 0, "\(explained.standardError)")
        let lines = explained.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "engine: sqlite")
        let sql = try #require(lines.first { $0.hasPrefix("sql: ") })
        #expect(sql.hasPrefix("sql: SELECT 0, t.rowid, "), "\(sql)")
        #expect(sql.components(separatedBy: " UNION ALL ").count == 3)
        #expect(sql.hasSuffix(" ORDER BY 10 ASC, 3 ASC LIMIT ? OFFSET ?"), "\(sql)")
        #expect(lines.contains(#"arguments: ["", 30, "", 30, "", 30, 2, 0]"#), "\(explained.standardOutput)")
        #expect(lines.contains("indexes: Contractor$age$index, Employee$age$index, Manager$age$index"), "\(explained.standardOutput)")
        let plan = try #require(lines.firstIndex(of: "query plan:"))
        #expect(lines.dropFirst(plan + 1).first == "  \(HierarchyExplainCommandTests.heading)")
        #expect(lines.dropFirst(plan + 2).first?.hasPrefix("  MERGE (UNION ALL)") == true, "\(explained.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  SEARCH t USING INDEX Contractor$age$index ($zone=? AND age>?)") }, "\(explained.standardOutput)")
    }

    static let heading = "one statement for Person and its subtypes: UNION ALL of Contractor, Employee, Manager, merged in order by the database"
}

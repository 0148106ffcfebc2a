import EngineTestSupport
import Foundation
import TestSupport
import Testing

/// `query schema deploy`: the development environment's schema (the store `query serve` keeps
/// beside the served one) deployed onto production's (the `--db` store).
@Suite("query schema deploy")
struct SchemaDeployCommandTests {
    typealias Target = RelationshipRoundTripCommandTests.Target

    /// The `--db` of a new, empty production store, and of the development store beside it
    /// (`cities.development.sqlite`; on PostgreSQL, the URL ends with its schema parameter, and
    /// development's schema is that name and `_development`).
    static func newStores(_ target: Target, _ folder: URL) throws -> (production: String, development: String) {
        let production = try target.newStore(folder, "cities")
        switch target {
        case .sqlite: return (production, folder.appendingPathComponent("cities.development.sqlite").path)
        case .postgres: return (production, production + "_development")
        }
    }

    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE City (
                name        STRING QUERYABLE SEARCHABLE,
                population  INT64 QUERYABLE SORTABLE
            );
        """

    static func succeeding(_ arguments: [String]) async throws -> String {
        let outcome = try await CommandRunner.run(arguments)
        #expect(outcome.status == 0, "query \(arguments.joined(separator: " ")): \(outcome.standardError)")
        return outcome.standardOutput
    }

    @Test("deploy adds development's new field to production, says so, and refuses a field whose type changed", arguments: Target.available)
    func deployAddsAFieldAndRefusesATypeChange(target: Target) async throws {
        let folder = TestFolders.make("schema-deploy")
        let (production, development) = try Self.newStores(target, folder)
        let file = folder.appendingPathComponent("schema.ckdb")
        try Data(Self.schema.utf8).write(to: file)
        _ = try await Self.succeeding(["schema", "apply", "--db", production, file.path])
        _ = try await Self.succeeding(["schema", "apply", "--db", development, file.path])
        // A development save brings a field production does not have.
        _ = try await Self.succeeding(["save", "--db", development, "City", "--record", #"{"recordName": "lyon", "fields": {"name": "Lyon", "mayor": "G. Doucet"}}"#])
        let refused = try await CommandRunner.run(["save", "--db", production, "--mode", "production", "City", "--record", #"{"recordName": "lyon", "fields": {"mayor": "G. Doucet"}}"#])
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: Cannot add field 'mayor' to record type 'City' in production mode\n")

        let dryRun = try await Self.succeeding(["schema", "deploy", "--db", production, "--dry-run"])
        #expect(dryRun == "Production gains:\n  + field City.mayor STRING QUERYABLE SEARCHABLE\nDry run: nothing deployed\n")
        #expect(try await !Self.succeeding(["schema", "show", "--db", production, "City"]).contains("mayor"))

        let deployed = try await Self.succeeding(["schema", "deploy", "--db", production])
        #expect(deployed == "Production gains:\n  + field City.mayor STRING QUERYABLE SEARCHABLE\nDeployed 1 change to production\n")
        _ = try await Self.succeeding(["save", "--db", production, "--mode", "production", "City", "--record", #"{"recordName": "lyon", "fields": {"mayor": "G. Doucet"}}"#])
        #expect(try await Self.succeeding(["schema", "deploy", "--db", production]) == "Production has development's schema already: nothing to deploy\n")

        // Development widens population to DOUBLE: production cannot take it, and nothing is deployed.
        _ = try await Self.succeeding(["save", "--db", development, "City", "--record", #"{"recordName": "nice", "fields": {"population": 1.5, "motto": "Nissa la bella"}}"#])
        let showBefore = try await Self.succeeding(["schema", "show", "--db", production, "City"])
        let conflict = try await CommandRunner.run(["schema", "deploy", "--db", production])
        #expect(conflict.status == 1)
        #expect(conflict.standardOutput == "Production cannot take:\n  City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change\n")
        #expect(conflict.standardError == "error: nothing deployed: 1 field of development's schema would change type in production\n")
        #expect(try await Self.succeeding(["schema", "show", "--db", production, "City"]) == showBefore)
    }
}

import ArgumentParser
import RecordStore

extension SchemaCommand {
    /// `query schema deploy [--dry-run]`: the development environment's schema onto production's,
    /// as CloudKit deploys a container's development schema. Production is the `--db` store (what
    /// `query serve` serves as production, and `query find` reads); development is the store
    /// `query serve` keeps beside it (``Store/openSibling(named:mode:schemaLimits:progress:)``:
    /// `cities.development.sqlite` beside `cities.sqlite`). Production gains development's record
    /// types, fields, index types and relationships it lacks; nothing of production's is removed.
    /// A field whose type differs is refused, and then nothing is deployed.
    ///
    /// ```
    /// $ query schema deploy --db cities.sqlite
    /// Production gains:
    ///   + field City.mayor STRING QUERYABLE SEARCHABLE
    /// Deployed 1 change to production
    /// ```
    struct Deploy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deploy",
            abstract: "Deploy the development environment's schema (query serve's, beside the --db store) to production (the --db store).",
            discussion: """
                Production gains the record types, fields, index types (QUERYABLE, SORTABLE, SEARCHABLE) and \
                relationships of development's schema that it lacks; nothing of production's is removed. \
                A field whose type differs between the two (INT64 in production, DOUBLE in development) cannot \
                change: it is listed, and nothing is deployed. Development's schema is the one query serve grows \
                as development records arrive, kept beside the store (cities.development.sqlite beside \
                cities.sqlite; the schema SCHEMA_development of a PostgreSQL database).
                """)

        @OptionGroup var store: StoreOptions

        @Flag(help: "Print what production would gain, and change nothing.")
        var dryRun = false

        func run() async throws {
            let production = try await store.openStore()
            let development = try await StoreOptions.failing { () async throws(RecordStoreError) in
                try await production.openSibling(named: SchemaMode.development.rawValue)
            }
            let deployment = try await StoreOptions.failing { () async throws(RecordStoreError) in try await production.deployment(from: development) }
            if !deployment.conflicts.isEmpty {
                print("Production cannot take:")
                for conflict in deployment.conflicts { print("  \(conflict)") }
                throw CommandFailure("nothing deployed: \(Apply.counted(deployment.conflicts.count, "field")) of development's schema would change type in production")
            }
            guard !deployment.gains.isEmpty else {
                print("Production has development's schema already: nothing to deploy")
                return
            }
            print("Production gains:")
            for gain in deployment.gains { print("  \(gain)") }
            if dryRun {
                print("Dry run: nothing deployed")
                return
            }
            var deployed = deployment
            try await Apply.drawingIndexBuilds { progress in
                deployed = try await StoreOptions.failing { () async throws(RecordStoreError) in
                    try await production.deploySchema(from: development, progress: progress)
                }
            }
            print("Deployed \(Apply.counted(deployed.gains.count, "change")) to production")
        }
    }
}

// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Query",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PredicateLanguage", targets: ["PredicateLanguage"]),
        .library(name: "RecordStore", targets: ["RecordStore"]),
        .library(name: "QueryBuilder", targets: ["QueryBuilder"]),
        .library(name: "RecordStorePostgres", targets: ["RecordStorePostgres"]),
        // For engine authors: the engine contract (RecordStoreCore) and the SQL planner and executor
        // (RecordStoreSQL), both published under `@_spi(StorageEngine)`. An engine of another package
        // depends on this product and writes `@_spi(StorageEngine) import RecordStoreCore` (and
        // `@_spi(StorageEngine) import RecordStoreSQL` for a SQL engine); Tests/ExternalEnginePackage
        // is one, built by .ci/external-engine-package.
        .library(name: "RecordStoreEngineKit", targets: ["RecordStoreCore", "RecordStoreSQL"]),
        .library(name: "RecordStoreConformance", targets: ["RecordStoreConformance"]),
        .library(name: "QueryServer", targets: ["QueryServer"]),
        .library(name: "QueryModel", targets: ["QueryModel"]),
        .executable(name: "query", targets: ["query"]),
        .executable(name: "query-bench", targets: ["query-bench"]),
    ],
    // The heavy parts are optional: without the PostgreSQL and Server traits, Query resolves and
    // builds none of PostgresNIO, Hummingbird, SwiftNIO, swift-crypto, swift-nio-ssl (two copies
    // of BoringSSL) and what they need. Only Macros is on by default, and the `query` tool does
    // not use it: a fresh clone's first command (`swift run query demo`) builds the predicate
    // language, the store, GRDB and ArgumentParser, nothing else. The server and the PostgreSQL
    // engine are one flag away: `swift run --enable-all-traits query serve`, and
    // `swift test --enable-all-traits` tests everything. A package names the traits it wants:
    // `.package(url: ..., from: ..., traits: ["PostgreSQL", "Server"])`.
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL engine (RecordStorePostgres), through PostgresNIO."),
        .trait(name: "Server", description: "The CloudKit Web Services server and its console (QueryServer), on Hummingbird."),
        .trait(name: "Macros", description: "The @QueryModel macro (QueryModel), built with swift-syntax."),
        .trait(
            name: "Tracing", description: "query serve --otlp-endpoint: traces exported with OTLP/HTTP by swift-otel (and the Server trait).",
            enabledTraits: ["Server"]),
        .default(enabledTraits: ["Macros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Signing in through an OpenID Connect provider: its ID tokens (RS256, ES256) and the
        // discovery document and keys fetched over HTTPS. Server trait only.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // Metrics: the API (CoreMetrics, a few files) in the store, so that a library user's
        // bootstrapped backend gets the store's metrics; the Prometheus backend only in the server.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // Spans of store operations and SQL statements (swift-distributed-tracing's API alone: a
        // few small modules, which the Server trait's Hummingbird builds anyway).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The OTLP exporter of query serve's traces, built only with the Tracing trait; OTLP/HTTP
        // alone, not gRPC (whose packages take minutes more to build).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation` (DocC) for the libraries; .ci/run builds their catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "PredicateLanguage",
            dependencies: ["CFoundationICU"],
            path: "Sources/PredicateLanguage"
        ),
        // Links the toolchain's ICU (lib_FoundationICU) for MATCHES: ICU's uregex C API with a
        // deterministic work limit. The declarations come from the toolchain's _FoundationICU module.
        .systemLibrary(
            name: "CFoundationICU",
            path: "Sources/CFoundationICU"
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib"
        ),
        // The store's engine-neutral core: records, zones, schema, querying, the engine contract,
        // save rules, the change feed, live queries, operations and cursors, fetch requests,
        // import, the registry of location schemes, and the memory engine.
        .target(
            name: "RecordStoreCore",
            dependencies: [
                "PredicateLanguage",
                "CFoundationICU",
                "CZlib",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Sources/RecordStoreCore"
        ),
        // The SQL planner (predicate -> SQL + residual, behind a dialect) and the executor every
        // SQL engine shares.
        .target(
            name: "RecordStoreSQL",
            dependencies: ["RecordStoreCore", "PredicateLanguage"],
            path: "Sources/RecordStoreSQL"
        ),
        // The SQLite engine: the only target that imports GRDB.
        .target(
            name: "RecordStoreSQLite",
            dependencies: [
                "RecordStoreCore",
                "RecordStoreSQL",
                "PredicateLanguage",
                "CFoundationICU",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for what GRDB does not wrap (the progress handler of a deadline).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/RecordStoreSQLite"
        ),
        // What users import: the core with its embedded engines (SQLite, memory) registered.
        .target(
            name: "RecordStore",
            dependencies: ["RecordStoreCore", "RecordStoreSQLite", "PredicateLanguage"],
            path: "Sources/RecordStore"
        ),
        // The conformance suite an engine runs, here and in packages of their own.
        .target(
            name: "RecordStoreConformance",
            dependencies: ["RecordStoreCore", "PredicateLanguage"],
            path: "Sources/RecordStoreConformance",
            // The cities data set, so that a package of its own gets it (Bundle.module): the same
            // bytes as Datasets/cities15000.jsonl.gz, which git stores once.
            resources: [.copy("Resources/cities15000.jsonl.gz")]
        ),
        // The PostgreSQL engine: the same store on a database server, through PostgresNIO.
        .target(
            name: "RecordStorePostgres",
            dependencies: [
                "RecordStore",
                "RecordStoreCore",
                "RecordStoreSQL",
                "PredicateLanguage",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Sources/RecordStorePostgres"
        ),
        // query serve: CloudKit Web Services over any engine, on Hummingbird.
        .target(
            name: "QueryServer",
            dependencies: [
                "RecordStore",
                "PredicateLanguage",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Sources/QueryServer",
            plugins: ["EmbedFilesPlugin"]
        ),
        // The console's .html, .css and .js files (and the benchmarks' .sql), embedded into their targets at build time as Swift source.
        .executableTarget(
            name: "EmbedFiles",
            path: "Sources/EmbedFiles"
        ),
        .plugin(
            name: "EmbedFilesPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedFiles"],
            path: "Plugins/EmbedFilesPlugin"
        ),
        // @QueryModel: a target of its own, so that only its users build swift-syntax.
        .macro(
            name: "QueryModelMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ],
            path: "Sources/QueryModelMacros"
        ),
        .target(
            name: "QueryModel",
            dependencies: ["QueryBuilder", .target(name: "QueryModelMacros", condition: .when(traits: ["Macros"]))],
            path: "Sources/QueryModel"
        ),
        .target(
            name: "QueryBuilder",
            dependencies: ["RecordStore", "PredicateLanguage"],
            path: "Sources/QueryBuilder"
        ),
        .executableTarget(
            name: "query",
            dependencies: [
                "PredicateLanguage",
                "RecordStore",
                .target(name: "RecordStorePostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "QueryServer", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["Tracing"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/QueryCLI",
            exclude: ["Resources/NOTICE"],
            resources: [.copy("Resources/Demo")]
        ),
        .executableTarget(
            name: "query-bench",
            dependencies: [
                "PredicateLanguage",
                "RecordStore",
                "RecordStoreCore",
                "RecordStoreSQL",
                .target(name: "RecordStorePostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "QueryServer", condition: .when(traits: ["Server"])),
                "QueryBuilder",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                // Signs the requests of a server-to-server key (the security roles' figure).
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Server"])),
                // The writing clients of the writes section (QueryServer depends on it already).
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
            ],
            path: "Sources/QueryBenchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
            // The hand-written store layout of the writes section (store-layout-notes.sql).
            plugins: ["EmbedFilesPlugin"]
        ),
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"
        ),
        .target(
            name: "EngineTestSupport",
            dependencies: ["RecordStore", "RecordStoreCore", "RecordStorePostgres", "PredicateLanguage", "TestSupport"],
            path: "Tests/EngineTestSupport"
        ),
        .testTarget(
            name: "PredicateLanguageTests",
            dependencies: ["PredicateLanguage", "TestSupport"],
            path: "Tests/PredicateLanguageTests"
        ),
        .testTarget(
            name: "RecordStoreTests",
            dependencies: [
                "RecordStore", "RecordStoreCore", "RecordStoreSQL", "RecordStoreSQLite", "PredicateLanguage", "TestSupport",
                "EngineTestSupport", "RecordStorePostgres", "RecordStoreConformance",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/RecordStoreTests",
            exclude: ["Schema/Fixtures"]
        ),
        // A user's file: one import (QueryModel), no `package` access.
        .testTarget(
            name: "OneImportTests",
            dependencies: ["QueryModel"],
            path: "Tests/OneImportTests",
            packageAccess: false
        ),
        .testTarget(
            name: "QueryServerTests",
            dependencies: [
                "QueryServer", "RecordStore", "RecordStorePostgres", "PredicateLanguage", "EngineTestSupport", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/QueryServerTests",
            exclude: ["Clients"]
        ),
        .testTarget(
            name: "QueryModelTests",
            dependencies: ["QueryModel", "RecordStore", "PredicateLanguage", "EngineTestSupport"],
            path: "Tests/QueryModelTests"
        ),
        .testTarget(
            name: "QueryBuilderTests",
            dependencies: ["QueryBuilder", "RecordStore", "PredicateLanguage", "EngineTestSupport"],
            path: "Tests/QueryBuilderTests"
        ),
        .testTarget(
            name: "QueryCLITests",
            dependencies: [
                "query",
                "RecordStore",
                "PredicateLanguage",
                "TestSupport",
                "EngineTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/QueryCLITests"
        ),
        // The Swift blocks of the README and the DocC articles, one program per document, generated by
        // Scripts/doc-examples.py (`doc-examples README` runs the README's).
        .executableTarget(
            name: "doc-examples",
            dependencies: [
                "PredicateLanguage",
                "RecordStore",
                "RecordStoreCore",
                "QueryBuilder",
                "QueryModel",
                .target(name: "RecordStorePostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "QueryServer", condition: .when(traits: ["Server"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/DocumentationExamples"
        ),
        // Runs each document's program twice and compares what it prints with what its text says.
        .testTarget(
            name: "DocumentationExamplesTests",
            dependencies: ["doc-examples", "TestSupport"],
            path: "Tests/DocumentationExamplesTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

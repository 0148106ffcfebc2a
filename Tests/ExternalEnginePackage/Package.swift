// swift-tools-version: 6.1
// A storage engine in a package of its own, as an engine author writes one: it depends on Query's
// products alone (RecordStoreEngineKit for the engine contract and the SQL planner,
// RecordStoreConformance for the suite), with no traits, and without the `package` access of
// Query's own targets. `.ci/external-engine-package` builds it from the checkout and runs the
// whole conformance suite on its engine.
import PackageDescription

let package = Package(
    name: "ExternalEnginePackage",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Query", path: "../..", traits: []),
    ],
    targets: [
        // The engine (records in a dictionary, queries evaluated in Swift, plans from the published
        // SQL planner) and the program that runs every conformance case on it, exiting non-zero on
        // any difference.
        .executableTarget(
            name: "ExternalEngine",
            dependencies: [
                .product(name: "PredicateLanguage", package: "Query"),
                .product(name: "RecordStoreEngineKit", package: "Query"),
                .product(name: "RecordStoreConformance", package: "Query"),
            ],
            path: "Sources/ExternalEngine"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
// A package that depends on Query as a user who needs only the predicate language, the store on
// SQLite and the builder would: with no traits, so that PostgresNIO, Hummingbird, swift-syntax and
// their dependencies are neither resolved nor built. `.ci/consumer-package` builds it from the
// checkout, checks its resolved dependencies and runs it twice.
import PackageDescription

let package = Package(
    name: "ConsumerPackage",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Query", path: "../..", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "QueryBuilder", package: "Query")],
            path: "Sources/Consumer"
        ),
    ],
    swiftLanguageModes: [.v6]
)

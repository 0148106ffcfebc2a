// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Query",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PredicateLanguage", targets: ["PredicateLanguage"]),
        .executable(name: "query", targets: ["query"]),
        .executable(name: "query-bench", targets: ["query-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "PredicateLanguage",
            path: "Sources/PredicateLanguage"
        ),
        .executableTarget(
            name: "query",
            dependencies: [
                "PredicateLanguage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/QueryCLI"
        ),
        .executableTarget(
            name: "query-bench",
            dependencies: ["PredicateLanguage"],
            path: "Sources/QueryBenchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]
        ),
        .testTarget(
            name: "PredicateLanguageTests",
            dependencies: ["PredicateLanguage"],
            path: "Tests/PredicateLanguageTests"
        ),
        .testTarget(
            name: "QueryCLITests",
            dependencies: ["query"],
            path: "Tests/QueryCLITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

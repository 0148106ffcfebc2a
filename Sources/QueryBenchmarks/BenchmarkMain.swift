import Foundation

/// `query-bench`: side-by-side benchmarks of Query against hand-written baselines.
///
/// Run in release mode from the package root (the datasets are read from the repository's `Datasets/`):
///
///     swift run -c release query-bench            # every section
///     swift run -c release query-bench parsing    # one section
///
/// Each figure prints next to its baseline with the ratio and the target.
@main
enum BenchmarkMain {
    /// The sections, in order; `postgres` and `serve` are part of the PostgreSQL and Server traits.
    static let sections: [any BenchmarkSection] = {
        var sections: [any BenchmarkSection] = [
            ParsingSection(), EvaluationSection(), StoreSection(), PagingSection(), StreamingSection(),
            CommandOutputSection(), SortingSection(), ConcurrencySection(), ScaleSection(), RelationshipsSection(), SyncSection(), BatchSection(),
            InheritanceSection(),
        ]
        #if PostgreSQL
        sections.append(PostgresSection())
        #endif
        #if Server
        sections.append(ServeSection())
        sections.append(WritesSection())
        #endif
        sections += [LiveSection(), PredicateSection()]
        return sections
    }()

    static func main() async {
        let requested = Set(CommandLine.arguments.dropFirst().map { $0.lowercased() })
        if requested.contains("--help") || requested.contains("-h") {
            print("usage: query-bench [section ...]\nsections: \(sections.map(\.name).joined(separator: ", "))")
            return
        }
        let unknown = requested.subtracting(sections.map(\.name))
        if !unknown.isEmpty {
            FileHandle.standardError.write(Data("query-bench: unknown section \(unknown.sorted().joined(separator: ", ")); sections: \(sections.map(\.name).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        #if DEBUG
        print("warning: this is a debug build; run `swift run -c release query-bench` for meaningful figures\n")
        #endif
        let report = BenchmarkReport()
        for section in sections where requested.isEmpty || requested.contains(section.name) {
            report.beginSection(section.title)
            do {
                try await section.run(report: report)
            } catch {
                report.note("section failed: \(String(reflecting: error))")
            }
        }
        report.printSummary()
    }
}

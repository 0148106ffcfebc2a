import Foundation
import PackagePlugin

/// Embeds a target's `.html`, `.css`, `.js` and `.sql` files into its binary: at build time the
/// `EmbedFiles` tool writes them into a Swift source file (`EmbeddedFiles.swift`, an enum with
/// one string constant per file), which the target compiles like its own. The files stay real
/// files a reader, an editor and a linter can open, and the binary needs no resource bundle:
/// it runs wherever it is moved.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    static let extensions: Set<String> = ["html", "css", "js", "sql"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles
            .map(\.url)
            .filter { Self.extensions.contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.map(\.lastPathComponent).joined(separator: ", ")) into \(target.name)",
                executable: try context.tool(named: "EmbedFiles").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}

import Foundation

// doc-examples DOCUMENT: runs the Swift blocks of one document (README, GettingStarted, ...), as
// Scripts/doc-examples.py generated them, in the current directory. DocumentationExamplesTests
// runs it; a person can too: `swift run doc-examples README` in an empty folder.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let name = arguments.first, let program = Documents.programs[name] else {
    let names = Documents.programs.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: doc-examples DOCUMENT, one of: \(names)\n".utf8))
    exit(2)
}
do {
    try await program()
} catch {
    FileHandle.standardError.write(Data("doc-examples \(name): \(error)\n".utf8))
    exit(1)
}

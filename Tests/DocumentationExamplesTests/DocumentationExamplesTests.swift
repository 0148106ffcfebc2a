import Foundation
import Testing
import TestSupport

/// Every Swift block of the README and the DocC articles, run as its document's program (see
/// Scripts/doc-examples.py): twice in one fresh folder, each run printing what the text says.
@Suite struct DocumentationExamplesTests {
    @Test(arguments: DocumentExample.all)
    func documentRunsTwiceAndPrintsWhatItsTextSays(_ document: DocumentExample) async throws {
        if document.needsPostgreSQL, ExampleRunner.postgresURL == nil {
            if ExampleRunner.isUnderCI {
                Issue.record("\(document.path) needs PostgreSQL: CI is set, but QUERY_TEST_POSTGRES_URL names no server")
            } else {
                print("note: \(document.path) not run: QUERY_TEST_POSTGRES_URL is not set (.ci/run starts a server and sets it)")
            }
            return
        }
        let folder = try ExampleRunner.makeWorkingFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for run in 1...2 {
            let outcome = try await ExampleRunner.run(document.name, in: folder)
            #expect(outcome.status == 0, "run \(run) of \(document.path) exited with \(outcome.status); standard error:\n\(outcome.standardError)")
            #expect(outcome.standardOutput == document.expectedOutput, "run \(run) of \(document.path) printed other than its text says")
            #expect(!outcome.standardError.contains(" error "), "run \(run) of \(document.path) logged an error:\n\(outcome.standardError)")
        }
    }

    @Test func theDocumentsHaveExamples() {
        #expect(!DocumentExample.all.isEmpty)
    }
}

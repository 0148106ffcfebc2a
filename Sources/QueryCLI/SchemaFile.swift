import Foundation
import RecordStore

/// A `.ckdb` file named on the command line (`query schema apply FILE`, `query serve --schema
/// FILE`): read and parsed, its errors said with the file's path, line and column.
///
/// ```swift
/// let schema = try SchemaFile(path: "schema.ckdb")
/// try await store.apply(schema.document)   // or schema.failure(error) for the message
/// ```
struct SchemaFile {
    /// The path as given ('-' is standard input).
    let path: String
    /// The parsed document.
    let document: CloudKitSchemaDocument

    /// Reads and parses the file; an unreadable file, one that is not UTF-8, and a syntax error
    /// (`schema.ckdb: line 3, column 14: expected …`) are command failures.
    init(path: String) throws(CommandFailure) {
        self.path = path
        let text = try Self.read(path)
        do {
            document = try CloudKitSchemaDocument(parsing: text)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// A failure to apply the document, said for a person: `schema.ckdb: line 3: record type
    /// 'City', field 'photo': …`, or the store's own error as it is.
    func failure(_ error: SchemaLanguageError) -> CommandFailure {
        switch error {
        case .store: CommandFailure(error.description)
        default: CommandFailure("\(path): \(error)")
        }
    }

    /// The file's text, or standard input's for `-`; an unreadable or non-UTF-8 file is a command failure.
    static func read(_ path: String) throws(CommandFailure) -> String {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("Cannot read '\(path)': \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("\(path): the file is not UTF-8 text")
        }
        return text
    }
}

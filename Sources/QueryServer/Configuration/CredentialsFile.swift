// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// A file naming who may call a server, read when it starts and again on SIGHUP
/// (`query serve --credentials-file`), so that keys and tokens change without a restart and
/// stay off the command line, where any user of the machine could read them.
///
/// One entry a line, a name and its value; blank lines and lines starting with `#` are skipped:
///
/// ```text
/// # query serve's callers
/// key 2f1b8c...=keys/production.pem     # KEYID=PEM, the path relative to this file
/// api-token d9a1c0...
/// allowed-origin https://notes.example
/// key-held-to-roles 2f1b8c...
/// ```
///
/// ```swift
/// let access = try CredentialsFile(path: "/etc/query/credentials").callerAccess()
/// print(access.credentials.keyIDs)
/// ```
public struct CredentialsFile: Sendable {
    /// The file's path.
    public let path: String

    /// The file at `path` (read by ``callerAccess(adding:)``).
    public init(path: String) {
        self.path = path
    }

    /// The access the file grants, added to `base` (the command line's, say). Key files are read
    /// anew each time, so a key rotated in place is picked up too.
    public func callerAccess(adding base: CallerAccess = CallerAccess()) throws(CredentialsFileError) -> CallerAccess {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: FileReadFailure.reason(error))
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var access = base
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let name = String(line.prefix { !$0.isWhitespace })
            let value = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
            let lineNumber = index + 1
            guard !value.isEmpty else { throw .missingValue(path: path, line: lineNumber, name: name) }
            switch name {
            case "key":
                try addKey(value, relativeTo: folder, to: &access, line: lineNumber)
            case "api-token":
                access.credentials.apiTokens.insert(value)
            case "allowed-origin":
                access.allowedOrigins.append(value)
            case "key-held-to-roles":
                access.keysHeldToSecurityRoles.insert(value)
            default:
                throw .unknownEntry(path: path, line: lineNumber, name: String(name.prefix(40)))
            }
        }
        return access
    }

    /// Adds a `KEYID=PEM` entry, its path relative to the file's folder unless absolute.
    private func addKey(_ value: String, relativeTo folder: URL, to access: inout CallerAccess, line: Int) throws(CredentialsFileError) {
        var option = value
        if let equals = value.firstIndex(of: "="), equals != value.startIndex {
            let keyPath = String(value[value.index(after: equals)...])
            if !keyPath.hasPrefix("/") {
                option = String(value[..<equals]) + "=" + folder.appendingPathComponent(keyPath).path
            }
        }
        do {
            try access.credentials.addKey(option)
        } catch {
            throw .key(path: path, line: line, error)
        }
    }
}

/// A credentials file (``CredentialsFile``) that cannot be used, and where. No message repeats a
/// token or a key.
public enum CredentialsFileError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// A line whose name is not `key`, `api-token`, `allowed-origin` or `key-held-to-roles`.
    case unknownEntry(path: String, line: Int, name: String)
    /// A line with a name and no value.
    case missingValue(path: String, line: Int, name: String)
    /// A `key` line whose key cannot be used.
    case key(path: String, line: Int, ServerCredentialError)

    /// What is wrong, with the file and line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "the credentials file '\(path)' cannot be read: \(reason)"
        case .unknownEntry(let path, let line, let name):
            "\(path):\(line): '\(name)' is not an entry of a credentials file (key, api-token, allowed-origin, key-held-to-roles)"
        case .missingValue(let path, let line, let name):
            "\(path):\(line): '\(name.prefix(40))' needs a value after it"
        case .key(let path, let line, let error):
            "\(path):\(line): \(error)"
        }
    }
}
#endif

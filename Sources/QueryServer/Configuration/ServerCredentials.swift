// Part of the Server trait: without it, this module is empty.
#if Server
import Crypto
import Foundation

/// Who may call the server: server-to-server keys (CloudKit's signed requests, read and write
/// on every database) and API tokens (`ckAPIToken`, read-only on the public database).
/// With neither, the server answers anyone, and so listens on loopback only.
///
/// ```swift
/// var credentials = ServerCredentials()
/// try credentials.addKey("--key", "2f1b...=/etc/query/eckey.pub.pem")
/// credentials.apiTokens.insert("d9a1...")
/// ```
public struct ServerCredentials: Sendable {
    /// Public keys by key ID, as their raw representation (PublicKey itself is not Sendable).
    private var keyBytes: [String: Data] = [:]
    /// The accepted API tokens.
    public var apiTokens: Set<String> = []

    /// No credentials: add keys with ``addKey(_:)`` or ``addKey(id:publicKey:)`` and tokens to ``apiTokens``.
    public init() {}

    /// Whether no credential is configured (every caller is then let in).
    public var isEmpty: Bool { keyBytes.isEmpty && apiTokens.isEmpty }

    /// The key IDs configured.
    public var keyIDs: [String] { keyBytes.keys.sorted() }

    /// Adds a key.
    public mutating func addKey(id: String, publicKey: P256.Signing.PublicKey) {
        keyBytes[id] = publicKey.rawRepresentation
    }

    /// The raw public key of a key ID, or nil when none is configured.
    func publicKeyBytes(id: String) -> Data? {
        keyBytes[id]
    }

    /// Adds a key from the command line's `KEYID=PATH` form, PATH a PEM file holding the public
    /// key or the private key it belongs to (CloudKit's dashboard hands out the private one).
    public mutating func addKey(_ option: String) throws(ServerCredentialError) {
        guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
            throw .malformedKeyOption(option)
        }
        let keyID = String(option[..<equals])
        let path = String(option[option.index(after: equals)...])
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadableKeyFile(path: path, reason: FileReadFailure.reason(error))
        }
        addKey(id: keyID, publicKey: try Self.publicKey(pem: text, path: path))
    }

    /// The public key a PEM text holds (a public key, or a private key in SEC1 or PKCS#8 form).
    static func publicKey(pem: String, path: String) throws(ServerCredentialError) -> P256.Signing.PublicKey {
        for block in pemBlocks(pem) {
            if let key = try? P256.Signing.PublicKey(pemRepresentation: block) { return key }
            if let key = try? P256.Signing.PrivateKey(pemRepresentation: block) { return key.publicKey }
        }
        throw .notAP256Key(path: path)
    }

    /// The PEM blocks of a text, each rewrapped at 64 characters a line (the parser wants
    /// that; OpenSSL and python-ecdsa write 64 and 76). `openssl ecparam -genkey` without
    /// `-noout` writes an `EC PARAMETERS` block first: every block is tried.
    static func pemBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var label: Substring?
        var body = ""
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("-----BEGIN ") {
                label = line.dropFirst("-----BEGIN ".count).dropLast(5)
                body = ""
            } else if line.hasPrefix("-----END "), let open = label {
                var lines: [String] = []
                var rest = Substring(body)
                while !rest.isEmpty {
                    lines.append(String(rest.prefix(64)))
                    rest = rest.dropFirst(64)
                }
                blocks.append((["-----BEGIN \(open)-----"] + lines + ["-----END \(open)-----"]).joined(separator: "\n"))
                label = nil
            } else if label != nil {
                body += line
            }
        }
        return blocks
    }
}

/// A credential the server was started with that it cannot use.
public enum ServerCredentialError: Error, CustomStringConvertible, Equatable {
    /// A `--key` option that is not `KEYID=PEM`.
    case malformedKeyOption(String)
    /// A key file that cannot be read, and why.
    case unreadableKeyFile(path: String, reason: String)
    /// A key file that holds no P-256 key.
    case notAP256Key(path: String)
    /// A reload asked of a server configured without a ``ServerConfiguration/callerAccessSource``.
    case noSourceToReload
    /// A reload that would take a server started with credentials to none, or the reverse.
    case reloadChangesOpenness(startedWithCredentials: Bool)

    /// What was wrong with the option or file, for the person who started the server.
    public var description: String {
        switch self {
        case .malformedKeyOption(let option):
            "--key takes KEYID=PATH (the key ID CloudKit shows, then a PEM file), not '\(option)'"
        case .unreadableKeyFile(let path, let reason):
            "the key file '\(path)' cannot be read: \(reason)"
        case .notAP256Key(let path):
            "the key file '\(path)' holds no P-256 (prime256v1) public or private key in PEM form"
        case .noSourceToReload:
            "this server has nothing to reload its keys and tokens from (no callerAccessSource)"
        case .reloadChangesOpenness(let startedWithCredentials):
            startedWithCredentials
                ? "the reload leaves no key or API token, and this server was started with credentials: restart it to serve without (loopback only)"
                : "the reload brings keys or API tokens to a server started without credentials: restart it to serve with them"
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HummingbirdTLS
import NIOSSL

/// The PEM files `query serve --tls-certificate --tls-key` serves HTTPS with: a certificate chain
/// (the server's certificate first) and its private key.
///
/// ```swift
/// var configuration = CloudKitServer.Configuration(host: "0.0.0.0", port: 8443, credentials: credentials)
/// configuration.tls = TLSFiles(certificatePath: "/etc/query/cert.pem", keyPath: "/etc/query/key.pem")
/// ```
public struct TLSFiles: Sendable, Equatable {
    /// The PEM file of the certificate chain.
    public var certificatePath: String
    /// The PEM file of the certificate's private key.
    public var keyPath: String

    /// The two files.
    ///
    /// ```swift
    /// let files = TLSFiles(certificatePath: "cert.pem", keyPath: "key.pem")
    /// ```
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// Reads both files, so that a bad file stops the server at its start with a clear message.
    ///
    /// ```swift
    /// try TLSFiles(certificatePath: "cert.pem", keyPath: "key.pem").check()
    /// ```
    public func check() throws(TLSFilesError) {
        _ = try serverConfiguration()
    }

    /// The server's TLS configuration: TLS 1.2 and later (NIOSSL's default minimum is 1.0, so it
    /// is set here), NIOSSL's default ciphers.
    func serverConfiguration() throws(TLSFilesError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw .unreadableCertificate(path: certificatePath, reason: "\(error)")
        }
        guard !chain.isEmpty else { throw .unreadableCertificate(path: certificatePath, reason: "it holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw .unreadableKey(path: keyPath, reason: "\(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

/// A TLS file `query serve` cannot use, and why.
///
/// ```swift
/// TLSFilesError.unreadableKey(path: "key.pem", reason: "no such file").description
/// ```
public enum TLSFilesError: Error, Equatable, CustomStringConvertible {
    /// The certificate file cannot be read as a PEM certificate chain.
    case unreadableCertificate(path: String, reason: String)
    /// The key file cannot be read as a PEM private key.
    case unreadableKey(path: String, reason: String)

    /// What is wrong, for the person who started the server.
    public var description: String {
        switch self {
        case .unreadableCertificate(let path, let reason): "--tls-certificate '\(path)' is not a PEM certificate chain: \(reason)"
        case .unreadableKey(let path, let reason): "--tls-key '\(path)' is not a PEM private key: \(reason)"
        }
    }
}
#endif

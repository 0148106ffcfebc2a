import Foundation

/// Signed tokens other than cursors and change tokens (the server's asset upload and download
/// URLs and upload receipts), sealed with the same store key and HMAC (``CursorSigner/seal(_:)``):
/// the payload is the layout version ``tokenVersion``, the store's identifier, then the token's
/// purpose, its expiry (seconds since 1970, or nothing) and its fields, each as a 4-byte
/// big-endian length and UTF-8 bytes. A token of one purpose never opens as another's, and no
/// cursor or change token opens as one (their versions differ).
///
/// ```swift
/// let token = signer.signToken(purpose: "download", fields: [hex, "12"], expires: Date().addingTimeInterval(3600))
/// let fields = try signer.openToken(token, purpose: "download")   // [hex, "12"]
/// ```
extension CursorSigner {
    /// The layout version of these tokens' payloads.
    package static let tokenVersion: UInt8 = 0x41

    /// A signed token of `fields` for `purpose`, valid until `expires` (nil: no expiry).
    package func signToken(purpose: String, fields: [String], expires: Date?) -> String {
        var payload = [Self.tokenVersion] + secret.storeIdentifier
        let expiry = expires.map { String(Int64($0.timeIntervalSince1970.rounded(.up))) } ?? ""
        for field in [purpose, expiry] + fields {
            let bytes = Array(field.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { payload.append(contentsOf: $0) }
            payload.append(contentsOf: bytes)
        }
        return seal(payload)
    }

    /// The fields of a token this store signed for `purpose`, or why it is refused.
    package func openToken(_ token: String, purpose: String, now: Date = Date()) throws(SignedTokenProblem) -> [String] {
        let payload: [UInt8]
        do {
            payload = try unseal(token, version: Self.tokenVersion, refusal: RecordStoreError.invalidCursor)
        } catch {
            if case .invalidCursor(.malformed) = error { throw .malformed }
            throw .forged
        }
        var fields: [String] = []
        var index = 1 + secret.storeIdentifier.count
        while index < payload.count {
            guard index + 4 <= payload.count else { throw .malformed }
            let length = payload[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            index += 4
            guard length <= payload.count - index else { throw .malformed }
            fields.append(String(decoding: payload[index..<index + length], as: UTF8.self))
            index += length
        }
        guard fields.count >= 2, fields[0] == purpose else { throw .forged }
        if !fields[1].isEmpty {
            guard let expiry = Int64(fields[1]) else { throw .malformed }
            guard now.timeIntervalSince1970 <= Double(expiry) else { throw .expired }
        }
        return Array(fields.dropFirst(2))
    }
}

/// Why a signed token (``CursorSigner/openToken(_:purpose:now:)``) is refused.
package enum SignedTokenProblem: Error, CustomStringConvertible {
    /// Not a token's shape.
    case malformed
    /// Not signed by this store for this purpose.
    case forged
    /// Past its expiry.
    case expired

    package var description: String {
        switch self {
        case .malformed: "the token is malformed"
        case .forged: "the token was not signed by this server (forged or altered)"
        case .expired: "the token has expired"
        }
    }
}

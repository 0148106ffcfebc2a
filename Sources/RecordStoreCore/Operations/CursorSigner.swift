import Foundation

/// Signs cursor payloads and checks signed tokens.
package struct CursorSigner: Sendable {
    package static let signatureLength = SHA256Digest.byteCount
    package let secret: StoreSecret

    func signature(_ payload: [UInt8]) -> [UInt8] {
        SHA256Digest.authenticationCode(for: payload, key: secret.key)
    }

    /// The token of a payload.
    package func sign(_ payload: CursorPayload) -> QueryCursor {
        let bytes = payload.encoded()
        return QueryCursor(token: Base64URL.encode(bytes + signature(bytes)))
    }

    /// The payload of a token this store signed, or the reason it is refused.
    package func open(_ cursor: QueryCursor) throws(RecordStoreError) -> CursorPayload {
        guard let bytes = Base64URL.decode(cursor.stringValue), bytes.count > Self.signatureLength + 17 else {
            throw .invalidCursor(.malformed)
        }
        let payload = Array(bytes.dropLast(Self.signatureLength))
        let signature = Array(bytes.suffix(Self.signatureLength))
        guard let storeIdentifier = CursorPayload.storeIdentifier(in: payload) else { throw .invalidCursor(.malformed) }
        let expected = self.signature(payload)
        guard Self.constantTimeEqual(expected, signature) else {
            throw .invalidCursor(storeIdentifier == secret.storeIdentifier ? .tampered : .foreignStore)
        }
        guard storeIdentifier == secret.storeIdentifier else { throw .invalidCursor(.foreignStore) }
        guard let decoded = CursorPayload(decoding: payload) else { throw .invalidCursor(.malformed) }
        return decoded
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

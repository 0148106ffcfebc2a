import Foundation

/// Signs cursor payloads and checks signed tokens.
package struct CursorSigner: Sendable {
    package static let signatureLength = SHA256Digest.byteCount
    package let secret: StoreSecret

    private func signature(_ payload: [UInt8]) -> [UInt8] {
        SHA256Digest.authenticationCode(for: payload, key: secret.key)
    }

    /// The text of a signed payload: base64url of the payload and its signature. Every payload
    /// this store signs starts with its version byte and the store's 16-byte identifier.
    package func seal(_ payload: [UInt8]) -> String {
        Base64URL.encode(payload + signature(payload))
    }

    /// The payload of a text ``seal(_:)`` made with this store's key, checked: its layout
    /// version, its store, its signature. A text that fails is refused with `refusal` of the
    /// problem found.
    package func unseal(
        _ text: String, version: UInt8, refusal: (CursorProblem) -> RecordStoreError
    ) throws(RecordStoreError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text), bytes.count > Self.signatureLength + 17 else { throw refusal(.malformed) }
        let payload = Array(bytes.dropLast(Self.signatureLength))
        let signature = Array(bytes.suffix(Self.signatureLength))
        guard payload[0] == version else { throw refusal(.malformed) }
        let storeIdentifier = Array(payload[1..<17])
        guard Self.constantTimeEqual(self.signature(payload), signature) else {
            throw refusal(signs(forStore: storeIdentifier) ? .tampered : .foreignStore)
        }
        guard signs(forStore: storeIdentifier) else { throw refusal(.foreignStore) }
        return payload
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

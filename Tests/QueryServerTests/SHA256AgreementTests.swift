import Crypto
import Testing
@testable import RecordStoreCore

/// The store signs cursors with its own SHA-256; the server's swift-crypto must agree with it at
/// every length around the block boundaries.
@Suite("The store's SHA-256 agrees with swift-crypto")
struct SHA256AgreementTests {
    @Test("Digests and authentication codes of 0 to 200 bytes, keys of 0 to 130 bytes")
    func agreesAtEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...200 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hash(message) == Array(SHA256.hash(data: message)), "length \(length)")
            let key = (0..<(length % 131)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
            #expect(SHA256Digest.authenticationCode(for: message, key: key) == expected, "length \(length), key \(key.count)")
        }
    }
}

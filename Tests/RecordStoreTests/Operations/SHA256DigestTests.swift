import Testing
@testable import RecordStoreCore

/// The store's own SHA-256 and HMAC-SHA-256, against the published test vectors.
@Suite("SHA-256 and HMAC-SHA-256")
struct SHA256DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    @Test("FIPS 180-4 examples: empty, one block, two blocks, a million bytes")
    func digests() {
        #expect(Self.hex(SHA256Digest.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256Digest.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256Digest.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256Digest.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("RFC 4231 cases 1, 2, 3 and 6: short, text, binary and longer-than-a-block keys")
    func authenticationCodes() {
        #expect(Self.hex(SHA256Digest.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(Self.hex(SHA256Digest.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(SHA256Digest.authenticationCode(for: [UInt8](repeating: 0xdd, count: 50), key: [UInt8](repeating: 0xaa, count: 20)))
            == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
        #expect(Self.hex(SHA256Digest.authenticationCode(
            for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), key: [UInt8](repeating: 0xaa, count: 131)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("A message hashed in pieces of every split has the digest of the whole")
    func piecesHashAsTheWhole() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let whole = SHA256Digest.hash(message)
        for first in [0, 1, 55, 56, 63, 64, 65, 128, 200, 300] {
            for second in [0, 1, 63, 64, 100] where first + second <= message.count {
                var hasher = SHA256Digest.Hasher()
                hasher.update(message[0..<first])
                hasher.update(message[first..<first + second])
                hasher.update(message[(first + second)...])
                #expect(hasher.finalize() == whole, "pieces of \(first), \(second) and \(message.count - first - second) bytes")
            }
        }
        var million = SHA256Digest.Hasher()
        for _ in 0..<1000 { million.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(Self.hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104): what the store needs of cryptography, to
/// sign cursors (``CursorSigner``), to bind them to their query (`RecordQuery.fingerprint`), and
/// to checksum assets as their bytes pass (``Hasher``).
///
/// The store keeps them here rather than depending on swift-crypto, whose BoringSSL is most of a
/// clean build of a package that uses only the language and SQLite (the README gives the
/// figures). The server, which verifies ECDSA P-256 request signatures, still uses swift-crypto.
/// `SHA256DigestTests` checks both functions against the FIPS 180-4 and RFC 4231 test vectors.
///
/// ```swift
/// let digest = SHA256Digest.hash(Array("abc".utf8))            // ba7816bf…f20015ad, 32 bytes
/// let code = SHA256Digest.authenticationCode(for: payload, key: secret)
/// ```
package enum SHA256Digest {
    /// The length of a digest and of an authentication code, in bytes.
    package static let byteCount = 32

    /// The SHA-256 digest of `message`.
    package static func hash(_ message: [UInt8]) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(message)
        return hasher.finalize()
    }

    /// The HMAC-SHA-256 authentication code of `message` under `key` (any length).
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = hash(block.map { $0 ^ 0x36 } + message)
        return hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// Folds the 64-byte block of `bytes` at `start` into `state`.
    static func compress(_ bytes: UnsafeRawBufferPointer, at start: Int, into state: inout [UInt32], schedule: inout [UInt32]) {
        for index in 0..<16 {
            let offset = start + index * 4
            schedule[index] = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15], late = schedule[index - 2]
            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for index in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ sum1 &+ choice &+ roundConstants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temporary2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temporary1
            d = c
            c = b
            b = a
            a = temporary1 &+ temporary2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    /// H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes.
    static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    /// The word rotated right by `count` bits.
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}

extension SHA256Digest {
    /// SHA-256 over bytes that arrive in pieces (an asset as it is uploaded): each complete
    /// 64-byte block is folded in as it comes, so a hasher holds at most one block whatever the
    /// message's length. ``SHA256Digest/hash(_:)`` is one update and ``finalize()``.
    ///
    /// ```swift
    /// var hasher = SHA256Digest.Hasher()
    /// hasher.update(Array("ab".utf8))
    /// hasher.update(Array("c".utf8))
    /// hasher.finalize() == SHA256Digest.hash(Array("abc".utf8))   // true
    /// ```
    package struct Hasher {
        private var state = SHA256Digest.initialState
        private var schedule = [UInt32](repeating: 0, count: 64)
        /// The bytes of an incomplete block (fewer than 64).
        private var partialBlock: [UInt8] = []
        /// The message's length so far, in bytes.
        private var length: UInt64 = 0

        /// A hasher of the empty message.
        package init() {
            partialBlock.reserveCapacity(64)
        }

        /// Appends bytes to the message.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var index = 0
            if !partialBlock.isEmpty {
                let taken = min(64 - partialBlock.count, bytes.count)
                partialBlock.append(contentsOf: bytes[0..<taken])
                index = taken
                guard partialBlock.count == 64 else { return }
                partialBlock.withUnsafeBytes { block in SHA256Digest.compress(block, at: 0, into: &state, schedule: &schedule) }
                partialBlock.removeAll(keepingCapacity: true)
            }
            while bytes.count - index >= 64 {
                SHA256Digest.compress(bytes, at: index, into: &state, schedule: &schedule)
                index += 64
            }
            partialBlock.append(contentsOf: bytes[index...])
        }

        /// Appends bytes to the message (contiguous ones without a copy).
        package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(UnsafeRawBufferPointer(buffer)) }
            if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
        }

        /// The digest of the message (32 bytes): the padding and the length, then the state.
        package mutating func finalize() -> [UInt8] {
            let bitLength = length &* 8
            var tail = partialBlock
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            tail.withUnsafeBytes { blocks in
                for start in stride(from: 0, to: blocks.count, by: 64) {
                    SHA256Digest.compress(blocks, at: start, into: &state, schedule: &schedule)
                }
            }
            partialBlock.removeAll()
            var digest: [UInt8] = []
            digest.reserveCapacity(SHA256Digest.byteCount)
            for word in state {
                digest.append(UInt8(truncatingIfNeeded: word >> 24))
                digest.append(UInt8(truncatingIfNeeded: word >> 16))
                digest.append(UInt8(truncatingIfNeeded: word >> 8))
                digest.append(UInt8(truncatingIfNeeded: word))
            }
            return digest
        }
    }
}

import Foundation

/// A stored asset's bytes, chunk by chunk (at most ``Asset/chunkSize`` bytes each), read from
/// the engine as they are asked for: ``Store/assetChunks(_:)`` makes one. It reads the asset
/// once, in one pass; bytes that end before the asset's size, or run past it, are an error
/// rather than a short or long answer.
///
/// ```swift
/// for try await chunk in try await store.assetChunks(asset) { send(chunk) }
/// ```
public struct AssetChunks: AsyncSequence, Sendable {
    /// A chunk of the asset's bytes.
    public typealias Element = Data
    /// Why the bytes could not be read.
    public typealias Failure = AssetError

    /// The asset read.
    public let asset: Asset
    /// The engine's reader, at the asset's start.
    private let reader: any AssetReader

    init(asset: Asset, reader: any AssetReader) {
        self.asset = asset
        self.reader = reader
    }

    /// The chunks from the asset's start (read once: a second iterator goes on where the first stopped).
    public func makeAsyncIterator() -> Iterator {
        Iterator(asset: asset, reader: reader)
    }

    /// The chunks in order, the asset's size checked at the end.
    public struct Iterator: AsyncIteratorProtocol {
        /// A chunk of the asset's bytes.
        public typealias Element = Data
        /// Why the bytes could not be read.
        public typealias Failure = AssetError

        let asset: Asset
        let reader: any AssetReader
        /// The bytes read so far.
        private var count: Int64 = 0

        init(asset: Asset, reader: any AssetReader) {
            self.asset = asset
            self.reader = reader
        }

        /// The next chunk, or nil after the last; an error when the engine fails, or when the
        /// bytes end before the asset's size or run past it.
        public mutating func next() async throws(AssetError) -> Data? {
            let chunk: Data?
            do {
                chunk = try await reader.next()
            } catch {
                throw .store(error)
            }
            guard let chunk else {
                guard count == asset.size else { throw .store(.storage("the bytes of asset \(asset) end after \(count) bytes")) }
                return nil
            }
            count += Int64(chunk.count)
            guard count <= asset.size else { throw .store(.storage("the bytes of asset \(asset) run past its size")) }
            return chunk
        }
    }
}

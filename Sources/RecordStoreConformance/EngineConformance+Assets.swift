import Foundation
import RecordStoreCore

extension EngineConformance {
    /// ``StoreBehavior/assets``: bytes saved as assets read back identical (empty, small, and
    /// over several chunks); an unknown asset is not found. An engine without asset storage
    /// answers `AssetError.unsupported`, and the check ends there without a difference.
    static func checkAssets(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let large = Data((0..<(2 * Asset.chunkSize + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let samples: [(String, Data)] = [("empty", Data()), ("small", Data("conformance \(check.unique)".utf8)), ("three chunks", large)]
        for (name, bytes) in samples {
            let asset: Asset
            do {
                asset = try await store.saveAsset(bytes)
            } catch {
                if case .unsupported = error { return }
                return check.fail("saving the \(name) asset threw \(error)")
            }
            check.expect(asset, Asset(bytes: bytes), "the \(name) asset's checksum and size")
            do {
                let read = try await store.assetData(asset)
                check.expect(read.count, bytes.count, "the size of the \(name) asset read back")
                check.expect(read == bytes, true, "the \(name) asset's bytes read back are the bytes saved")
            } catch {
                check.fail("reading the \(name) asset back threw \(error)")
            }
        }
        let unknown = Asset(bytes: Data("never saved \(check.unique)".utf8))
        do {
            _ = try await store.assetData(unknown)
            check.fail("reading an asset never saved succeeded")
        } catch {
            if case .notFound(unknown) = error {} else { check.fail("reading an asset never saved threw \(error), not notFound") }
        }
    }
}

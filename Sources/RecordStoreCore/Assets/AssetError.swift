/// Why an asset operation failed.
///
/// ```swift
/// do { _ = try store.assetData(asset) } catch { print(error) }   // "asset sha256:… is not stored"
/// ```
public enum AssetError: Error, CustomStringConvertible {
    /// The store's engine keeps no assets (an engine that does not provide `AssetStorage`).
    case unsupported(engine: String)
    /// No bytes are stored for the asset (never put, or removed as an upload no record referenced).
    case notFound(Asset)
    /// The bytes are larger than the limit.
    case tooLarge(size: Int, limit: Int)
    /// The bytes' checksum is not the one they were given with.
    case checksumMismatch(expected: String, found: String)
    /// The engine failed to keep or read the bytes.
    case store(RecordStoreError)
    /// An ``AssetUpload`` written to or finished after it was finished, cancelled or failed.
    case uploadClosed

    /// What was wrong.
    public var description: String {
        switch self {
        case .unsupported(let engine): "the \(engine) engine keeps no assets (it provides no AssetStorage)"
        case .notFound(let asset): "asset \(asset) is not stored"
        case .tooLarge(let size, let limit): "the asset has \(size) bytes, more than the limit of \(limit)"
        case .checksumMismatch(let expected, let found): "the asset's checksum is \(found), not \(expected)"
        case .store(let error): "the asset could not be kept or read: \(error)"
        case .uploadClosed: "the asset upload was already finished, cancelled or refused"
        }
    }
}

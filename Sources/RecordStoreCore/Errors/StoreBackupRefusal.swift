/// Why a backup or a restore was refused (``RecordStoreError/backupRefused(_:)``); nothing was
/// written where the refusal names.
///
/// ```swift
/// do {
///     try await Store.restore(from: "nightly.backup", to: "sqlite:cities.sqlite")
/// } catch .backupRefused(.locationHoldsStore(let location)) {
///     print("\(location) already holds a store: pass replacing: true")
/// }
/// ```
public enum StoreBackupRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The engine cannot write or restore backups (the memory engine: its store ends with the process).
    case engineUnsupported(engine: String)
    /// The backup's output path already exists; a backup never overwrites.
    case outputExists(path: String)
    /// The path is not a complete backup: no readable `manifest.json`, an unknown format
    /// version, or a missing part; `reason` says which.
    case notABackup(path: String, reason: String)
    /// The backup was written by one engine and the location is a store of another: a backup
    /// restores only into a store of its own engine (copy the records across with
    /// `query export` and `query import` instead).
    case engineMismatch(backup: String, location: String)
    /// The location already holds a store (it has records, zones, a schema or history), and the
    /// restore was not asked to replace it.
    case locationHoldsStore(location: String)

    public var description: String {
        switch self {
        case .engineUnsupported(let engine):
            "the \(engine) engine does not write or restore backups"
        case .outputExists(let path):
            "\(path) already exists: a backup is written to a new path"
        case .notABackup(let path, let reason):
            "\(path) is not a complete backup: \(reason)"
        case .engineMismatch(let backup, let location):
            "the backup is of a \(backup) store and the location is a \(location) store: a backup restores only into a store "
                + "of its own engine (copy records between engines with query export and query import)"
        case .locationHoldsStore(let location):
            "\(location) already holds a store: restore into an empty location, or replace it (--replace, replacing: true)"
        }
    }
}

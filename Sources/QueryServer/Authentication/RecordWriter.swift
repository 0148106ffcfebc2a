// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// Who a `records/modify` writes for, and which records they may change: the user whose name
/// the saved records carry in `created` and `modified` (the store's
/// ``Record/creatorUserRecordName`` and ``Record/lastModifiedUserRecordName``).
///
/// Until security roles are declared, the public database follows the defaults CloudKit
/// documents: the world reads, signed-in users create, and a record's creator alone changes or
/// deletes it. A server-to-server key, and the one user of a server without credentials, write
/// any record (they stand for the team, as a key does in CloudKit). A private database has one
/// user, its owner, who writes everything in it.
///
/// ```swift
/// let writer = RecordWriter.of(.user("_3f…"), database: .public, privateUsers: [:])
/// writer?.userRecordName            // "_3f…"
/// writer?.changesOnlyOwnRecords     // true
/// ```
struct RecordWriter: Sendable, Equatable {
    /// The user the saves are made by.
    var userRecordName: String
    /// Whether the writer may change and delete only the records it created.
    var changesOnlyOwnRecords: Bool

    /// The writer of a caller in a database; nil for an API token without a signed-in user
    /// (which writes nothing).
    static func of(_ caller: RequestAuthenticator.Caller, database: Namespace.Database, privateUsers: [String: String]) -> RecordWriter? {
        guard let name = try? UserRecordName.of(caller, privateUsers: privateUsers) else { return nil }
        if case .user = caller, case .public = database { return RecordWriter(userRecordName: name, changesOnlyOwnRecords: true) }
        return RecordWriter(userRecordName: name, changesOnlyOwnRecords: false)
    }

    /// The writer the service's own calls use: the database's owner (``UserRecordName/owner(of:)``),
    /// who writes any record.
    static func owner(of database: Namespace.Database) -> RecordWriter {
        RecordWriter(userRecordName: UserRecordName.owner(of: database), changesOnlyOwnRecords: false)
    }

    /// Whether the writer may change or delete a stored record.
    func mayChange(_ stored: Record) -> Bool {
        !changesOnlyOwnRecords || stored.creatorUserRecordName == userRecordName
    }
}
#endif

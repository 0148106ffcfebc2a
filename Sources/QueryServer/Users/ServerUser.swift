// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// A person who signs in to the server's container: a stable `userRecordName` (`_` and 32 hex
/// digits, as CloudKit's), the name components and email address the identity provider gave,
/// and whether other users may discover them (`users/discover`, `users/lookup/...`).
///
/// Users are kept in the served store (``UserDirectory``), so every server over one store knows
/// the same users. Each has a private database of their own.
///
/// ```swift
/// let user = ServerUser(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.org")
/// user.userRecordName   // "_3f9c…" (32 hex digits after "_")
/// ```
public struct ServerUser: Sendable, Equatable {
    /// The user's record name: `_` and 32 lowercase hex digits.
    public let userRecordName: String
    /// Who the identity provider says the user is (`issuer` and `sub`, a space apart), or nil for
    /// a user made from the command line.
    public var subject: String?
    /// The user's given (first) name.
    public var givenName: String?
    /// The user's family (last) name.
    public var familyName: String?
    /// The user's email address, lowercased.
    public var emailAddress: String?
    /// Whether other users may find this one by email address or record name.
    public var isDiscoverable: Bool

    /// A user; a new one gets a random record name.
    ///
    /// ```swift
    /// let user = ServerUser(emailAddress: "ada@example.org", isDiscoverable: true)
    /// ```
    public init(userRecordName: String = ServerUser.newRecordName(), subject: String? = nil, givenName: String? = nil,
                familyName: String? = nil, emailAddress: String? = nil, isDiscoverable: Bool = false) {
        self.userRecordName = userRecordName
        self.subject = subject
        self.givenName = givenName
        self.familyName = familyName
        self.emailAddress = emailAddress?.lowercased()
        self.isDiscoverable = isDiscoverable
    }

    /// A new random record name: `_` and 32 hex digits.
    public static func newRecordName() -> String {
        "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The record name of the user an identity provider's subject (`issuer sub`) stands for: `_`
    /// and the first 32 hex digits of its SHA-256, so that two servers signing the same person in
    /// at once make one user, not two.
    static func recordName(subject: String) -> String {
        UserRecordName.name(hashing: "query-subject:\(subject)")
    }

    /// Whether a text is a user record name's shape (`_` and 32 lowercase hex digits).
    static func isRecordName(_ text: String) -> Bool {
        text.utf8.count == 33 && text.hasPrefix("_") && text.utf8.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The private database of the user. Its name (`user.` and the hex digits) is never the
    /// name of a server-to-server key's database (``PrivateDatabaseUser``: letters, digits and `_`).
    var privateDatabase: Namespace.Database {
        .private(user: UserRecordName.signedInDatabasePrefix + userRecordName.dropFirst())
    }

    // MARK: As CloudKit answers users

    /// CloudKit's user dictionary (`users/current`, `users/lookup/...`): `userRecordName`,
    /// `firstName`, `lastName`, and `emailAddress` when `withEmail`.
    func userDictionary(withEmail: Bool) -> JSONValue {
        var members: [String: JSONValue] = ["userRecordName": .string(userRecordName)]
        if let givenName { members["firstName"] = .string(givenName) }
        if let familyName { members["lastName"] = .string(familyName) }
        if withEmail, let emailAddress { members["emailAddress"] = .string(emailAddress) }
        return .object(members)
    }

    /// CloudKit's user identity dictionary (`users/caller`, `users/discover`): `userRecordName`,
    /// `nameComponents` (`givenName`, `familyName`) and `lookupInfo`.
    func identityDictionary(lookupInfo: JSONValue? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["userRecordName": .string(userRecordName)]
        var name: [String: JSONValue] = [:]
        if let givenName { name["givenName"] = .string(givenName) }
        if let familyName { name["familyName"] = .string(familyName) }
        if !name.isEmpty { members["nameComponents"] = .object(name) }
        var lookup: [String: JSONValue] = ["userRecordName": .string(userRecordName)]
        if let emailAddress { lookup["emailAddress"] = .string(emailAddress) }
        members["lookupInfo"] = lookupInfo ?? .object(lookup)
        return .object(members)
    }

    // MARK: As the store keeps users

    /// The record type users are kept as.
    static let recordType = "QueryServerUser"

    /// The user as the record ``UserDirectory`` keeps.
    func record(in zone: ZoneID) -> Record {
        var record = Record(recordType: Self.recordType, recordID: RecordID(recordName: userRecordName, zoneID: zone))
        record["subject"] = subject.map(Value.string) ?? .null
        record["givenName"] = givenName.map(Value.string) ?? .null
        record["familyName"] = familyName.map(Value.string) ?? .null
        record["emailAddress"] = emailAddress.map(Value.string) ?? .null
        record["isDiscoverable"] = .int(isDiscoverable ? 1 : 0)
        return record
    }

    /// The user a kept record holds.
    init(record: Record) {
        func text(_ key: String) -> String? { if case .string(let value)? = record[key] { value } else { nil } }
        self.init(userRecordName: record.recordID.recordName, subject: text("subject"), givenName: text("givenName"),
                  familyName: text("familyName"), emailAddress: text("emailAddress"), isDiscoverable: Self.flag(record["isDiscoverable"]))
    }

    /// Whether a kept flag is set (stored as the integer 1).
    private static func flag(_ value: Value?) -> Bool {
        if case .int(1)? = value { true } else { false }
    }

    /// The record type's fields: the subject and email address are looked up.
    static let schema = RecordTypeSchema(name: recordType, fields: [
        FieldSchema(name: "subject", type: .string, isQueryable: true, isSortable: false),
        FieldSchema(name: "givenName", type: .string, isQueryable: false, isSortable: false),
        FieldSchema(name: "familyName", type: .string, isQueryable: false, isSortable: false),
        FieldSchema(name: "emailAddress", type: .string, isQueryable: true, isSortable: false),
        FieldSchema(name: "isDiscoverable", type: .int64, isQueryable: false, isSortable: false),
    ])
}
#endif

import ArgumentParser
import Foundation
import RecordStore

/// `query shares`: CloudKit shares kept in the store (``RecordShare``): a record and the records
/// whose parent chain reaches it, or a whole zone, shared by their owner with other users, each
/// `READ_ONLY` or `READ_WRITE`. Users are user record names (`_ada`); an argument with an `@` is an
/// email address (an invitation by email, matched when that user accepts with `--email`). A share
/// is named by its short GUID, which `create` prints.
///
/// ```sh
/// query shares create --zone Trips --record paris-trip --owner _ada --read-only _bob --read-write _carol
/// query shares accept q3Xv0aE9JbKQ8m1k2F7s4w --user _bob
/// query shares permission --zone Trips louvre --user _bob      # READ_ONLY
/// query shares remove-participant q3Xv0aE9JbKQ8m1k2F7s4w _bob
/// ```
struct SharesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shares",
        abstract: "Share records (with their children) or whole zones with other users, and inspect what they may do.",
        discussion: """
            A record share shares its root record and every record whose parent chain (the reserved field ___parent, \
            Record.parent) reaches it; a zone-wide share (--zone-wide) shares every record of its zone. Shares live in \
            custom zones. Participants are invited PENDING and become ACCEPTED with `query shares accept`; with a public \
            permission other than NONE, any user may accept and join. Users are user record names; a value with an @ is an \
            email address. A share is named by its short GUID.
            Examples: query shares create --zone Trips --record paris-trip --owner _ada --read-only _bob; \
            query shares list --user _bob; query shares accept GUID --user _bob; \
            query shares permission --zone Trips louvre --user _bob
            """,
        subcommands: [Create.self, List.self, Show.self, Invite.self, RemoveParticipant.self, Accept.self, Delete.self, Permission.self])

    /// `query shares create`: a new share, printed as `show` prints it.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share a record and its children (--record) or a whole zone (--zone-wide); prints the share.")

        @OptionGroup var store: StoreOptions
        @Option(help: "The zone of the shared records (a custom zone).") var zone: String
        @Option(help: "The root record's name.") var record: String?
        @Flag(name: .customLong("zone-wide"), help: "Share every record of the zone.") var zoneWide = false
        @Option(help: "The owner's user record name.") var owner: String
        @Option(name: .customLong("name"), help: "The share's record name (default: Share- and a UUID; a zone-wide share is cloudkit.zoneshare).")
        var shareName: String?
        @Option(name: .customLong("public"), help: "What any user who accepts may do: NONE, READ_ONLY or READ_WRITE (default NONE).")
        var publicPermission: SharePermission = .none
        @Option(name: .customLong("read-only"), help: "A participant who may read (repeatable).") var readers: [String] = []
        @Option(name: .customLong("read-write"), help: "A participant who may read and write (repeatable).") var writers: [String] = []

        func validate() throws {
            guard (record == nil) != !zoneWide else { throw ValidationError("Give either --record NAME or --zone-wide.") }
            if zoneWide, shareName != nil { throw ValidationError("A zone-wide share is named cloudkit.zoneshare: leave --name out.") }
        }

        func run() async throws {
            let opened = try await store.openStore()
            let zoneID = ZoneID(zoneName: zone)
            let participants = readers.map { SharesCommand.participant($0, .readOnly) } + writers.map { SharesCommand.participant($0, .readWrite) }
            var share: RecordShare
            if let record {
                let root = RecordID(recordName: record, zoneID: zoneID)
                share = shareName.map { RecordShare(rootRecordID: root, owner: owner, recordName: $0) } ?? RecordShare(rootRecordID: root, owner: owner)
            } else {
                share = RecordShare(zone: zoneID, owner: owner)
            }
            share.publicPermission = publicPermission
            share.participants = participants
            let toSave = share
            let saved = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.saveShare(toSave) }
            SharesCommand.printShare(saved)
        }
    }

    /// `query shares list`: a share a line.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List shares, a line each: short GUID, zone, share, root (* for a zone-wide share), owner, public permission.",
            discussion: "With --user, the shares shared with that user (PENDING or ACCEPTED), each line ending with their status and "
                + "permission (- until they accept). With --owner, the shares a user owns.")

        @OptionGroup var store: StoreOptions
        @Option(help: "Only the shares shared with this user record name.") var user: String?
        @Option(help: "With --user: the user's email address, for invitations by email.") var email: String?
        @Option(help: "Only the shares this user owns.") var owner: String?

        func validate() throws {
            if user != nil, owner != nil { throw ValidationError("Give --user or --owner, not both.") }
            if email != nil, user == nil { throw ValidationError("--email goes with --user.") }
        }

        func run() async throws {
            let opened = try await store.openStore()
            let (user, email, owner) = (self.user, self.email, self.owner)
            let shares = try await StoreOptions.failing { () async throws(RecordStoreError) in
                if let user { return try await opened.shares(sharedWith: user, emailAddress: email) }
                if let owner { return try await opened.shares(ownedBy: owner) }
                return try await opened.allShares()
            }
            for share in shares {
                var columns = [share.shortGUID, share.zoneID.zoneName, share.recordID.recordName, share.rootRecordID?.recordName ?? "*", share.owner,
                               share.publicPermission.rawValue]
                if let user {
                    let participant = share.currentUserParticipant(user, emailAddress: email)
                    columns += [participant?.acceptanceStatus.rawValue ?? "-", share.permission(for: user)?.rawValue ?? "-"]
                }
                print(columns.joined(separator: "\t"))
            }
        }
    }

    /// `query shares show GUID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a share: its record, root, owner, public permission, short GUID and participants "
                + "(user record name, email, role, permission, status), the owner first.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The share's short GUID.") var share: String

        func run() async throws {
            let opened = try await store.openStore()
            SharesCommand.printShare(try await SharesCommand.share(share, in: opened))
        }
    }

    /// `query shares invite GUID USER`.
    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a participant to a share (PENDING until they accept), or change a participant's permission.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The share's short GUID.") var share: String
        @Argument(help: "The participant: a user record name, or an email address.") var participant: String
        @Option(help: "READ_ONLY or READ_WRITE (default READ_ONLY).") var permission: SharePermission = .readOnly

        func run() async throws {
            let opened = try await store.openStore()
            var found = try await SharesCommand.share(share, in: opened)
            let invited = SharesCommand.participant(participant, permission)
            if let index = found.participants.firstIndex(where: { $0.role != .owner && $0.isSamePerson(as: invited) }) {
                found.participants[index].permission = permission
            } else {
                found.participants.append(invited)
            }
            let update = found
            let saved = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.saveShare(update) }
            SharesCommand.printShare(saved)
        }
    }

    /// `query shares remove-participant GUID USER`.
    struct RemoveParticipant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-participant", abstract: "Take a participant off a share: they lose access at once.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The share's short GUID.") var share: String
        @Argument(help: "The participant: a user record name, or an email address.") var participant: String

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await SharesCommand.share(share, in: opened)
            let participant = self.participant
            try await StoreOptions.failing { () async throws(RecordStoreError) in
                _ = try await opened.removeParticipant(participant, from: found.recordID)
            }
            print("\(participant) no longer shares \(found.recordID)")
        }
    }

    /// `query shares accept GUID --user USER`.
    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept a share as a user: an invited participant becomes ACCEPTED; with a public permission, anyone joins.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The share's short GUID.") var share: String
        @Option(help: "The accepting user's record name.") var user: String
        @Option(help: "The accepting user's email address (to match an invitation by email).") var email: String?

        func run() async throws {
            let opened = try await store.openStore()
            let (guid, user, email) = (self.share, self.user, self.email)
            let accepted = try await StoreOptions.failing { () async throws(RecordStoreError) in
                try await opened.acceptShare(shortGUID: guid, as: user, emailAddress: email)
            }
            print("\(user) accepted \(accepted.recordID): \(accepted.permission(for: user)?.rawValue ?? SharePermission.none.rawValue)")
        }
    }

    /// `query shares delete GUID`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a share: every record it shared is unshared.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The share's short GUID.") var share: String

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await SharesCommand.share(share, in: opened)
            try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.deleteShare(found.recordID) }
            print("Deleted share \(found.recordID)")
        }
    }

    /// `query shares permission --zone ZONE RECORD --user USER`.
    struct Permission: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what the shares let a user do with a record: READ_ONLY, READ_WRITE or NONE.")

        @OptionGroup var store: StoreOptions
        @Option(help: "The record's zone.") var zone: String
        @Argument(help: "The record's name.") var record: String
        @Option(help: "The user record name.") var user: String

        func run() async throws {
            let opened = try await store.openStore()
            let (id, user) = (RecordID(recordName: self.record, zoneID: ZoneID(zoneName: self.zone)), self.user)
            let permission = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.sharePermission(of: id, for: user) }
            print((permission ?? SharePermission.none).rawValue)
        }
    }

    /// A participant from the command line: an email address when it holds an `@`, a user record name otherwise.
    static func participant(_ text: String, _ permission: SharePermission) -> ShareParticipant {
        text.contains("@") ? ShareParticipant(emailAddress: text, permission: permission) : ShareParticipant(userRecordName: text, permission: permission)
    }

    /// The share with this short GUID; a command failure when there is none.
    static func share(_ shortGUID: String, in store: Store) async throws -> RecordShare {
        let found = try await StoreOptions.failing { () async throws(RecordStoreError) in try await store.share(shortGUID: shortGUID) }
        guard let found else { throw CommandFailure(RecordStoreError.sharing(.shortGUIDNotFound(shortGUID)).description) }
        return found
    }

    /// Prints a share, a property a line (tab between name and value), then a line per participant.
    static func printShare(_ share: RecordShare) {
        print("share\t\(share.recordID)")
        print("root\t\(share.rootRecordID.map(String.init(describing:)) ?? "* (the whole zone)")")
        print("owner\t\(share.owner)")
        print("public\t\(share.publicPermission)")
        print("shortGUID\t\(share.shortGUID)")
        for participant in share.participants {
            print(["participant", participant.userRecordName ?? "-", participant.emailAddress ?? "-", participant.role.rawValue,
                   participant.permission.rawValue, participant.acceptanceStatus.rawValue].joined(separator: "\t"))
        }
    }
}

extension SharePermission: ExpressibleByArgument {
    /// `NONE`, `READ_ONLY`, `READ_WRITE`, in any case, with `-` for `_` (`read-only`).
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased().replacingOccurrences(of: "-", with: "_"))
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The user a server-to-server key stands for in the private database: its key ID, encoded
/// one-to-one into a zone-name-safe text. ASCII letters and digits stay as they are; every other
/// UTF-8 byte, `_` included, becomes `_` and two hex digits. So `k-1` is `k_2D1` and `k_1` is
/// `k_5F1`: two key IDs never share a private database.
///
/// Servers before this encoding folded every other character into `_` (``legacyName(keyID:)``).
/// A key whose data a store holds under its folded name keeps reading it there, as long as no
/// other configured key folds or encodes to the same name (``resolve(keyIDs:storedZones:)``).
///
/// Why the data stays under its folded name instead of a one-time migration to the new one:
/// - The folded name cannot say which key wrote the data: `k-1`, `k.1` and `k@1` all fold to
///   `k_1`, and a server knows only the keys of its own configuration. A migration run while only
///   `k-1` is configured would hand `k.1`'s records to `k-1` for good; the fallback decides again at
///   each start, so once a second key that folds alike is configured, neither reads them.
/// - The engine contract has no zone rename, so a migration would copy every record and delete
///   the old zones. Saving gives each copy a new change tag and modification date (a client's
///   `update` with the tag it holds becomes a `CONFLICT`), the zone's change history and
///   tombstones stay behind (a sync token from `records/changes` or `changes/zone` continues
///   nothing, and deletions made before are never reported), and so do the subscriptions kept in
///   `subscriptions/private/<user>/` with the event IDs clients resume from.
/// - A copy of a whole database is not one transaction (zones are deleted one call at a time), so
///   a crash halfway leaves part of it under each name; and servers sharing one PostgreSQL, an
///   older one among them during an upgrade, would keep writing under the folded name while
///   another copies it. The engine contract has no lock that spans processes to prevent that.
///
/// The fallback costs nothing of that: it reads the zones where they are, costs one list of
/// zones at start (and only when some configured key's folded name differs from its encoded one),
/// and is correct for every mix of servers.
///
/// ```swift
/// PrivateDatabaseUser.name(keyID: "k-1")   // "k_2D1"
/// PrivateDatabaseUser.name(keyID: "k_1")   // "k_5F1"
/// ```
enum PrivateDatabaseUser {
    /// The user name of a key ID (one-to-one).
    static func name(keyID: String) -> String {
        var name = ""
        name.reserveCapacity(keyID.utf8.count)
        let hex = Array("0123456789ABCDEF")
        for byte in keyID.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name.append("_")
                name.append(hex[Int(byte >> 4)])
                name.append(hex[Int(byte & 0xF)])
            }
        }
        return name
    }

    /// The name servers before this encoding gave a key ID: every character other than an ASCII
    /// letter or digit folded into `_` (not one-to-one).
    static func legacyName(keyID: String) -> String {
        String(keyID.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
    }

    /// The user of each configured key: its ``name(keyID:)``, or its ``legacyName(keyID:)`` when the
    /// store holds private zones under that name only, and no other key folds or encodes to it.
    static func resolve(keyIDs: [String], storedZones: [ZoneID]) -> [String: String] {
        let users = Set(storedZones.compactMap { user(of: $0) })
        var legacyOwners: [String: Int] = [:]
        for keyID in keyIDs { legacyOwners[legacyName(keyID: keyID), default: 0] += 1 }
        let encodedNames = Set(keyIDs.map(name(keyID:)))
        var resolved: [String: String] = [:]
        for keyID in keyIDs {
            let encoded = name(keyID: keyID)
            let legacy = legacyName(keyID: keyID)
            let keepsLegacy = legacy != encoded && users.contains(legacy) && !users.contains(encoded)
                && legacyOwners[legacy] == 1 && !encodedNames.contains(legacy)
            resolved[keyID] = keepsLegacy ? legacy : encoded
        }
        return resolved
    }

    /// The private user whose zone (or subscriptions zone) a stored zone is, if any.
    private static func user(of zone: ZoneID) -> String? {
        var name = Substring(zone.zoneName)
        if name.hasPrefix("subscriptions/") { name = name.dropFirst("subscriptions/".count) }
        if name.hasPrefix("development/") { name = name.dropFirst("development/".count) }
        guard name.hasPrefix("private/") else { return nil }
        return name.dropFirst("private/".count).split(separator: "/", omittingEmptySubsequences: false).first.map(String.init)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// The `syncToken` of a shared database's `changes/database`: the store's database token, a
/// `.`, and the zones the database held when the token was made, as base64url JSON
/// (`[[ownerRecordName, zoneName], …]`).
///
/// The store's history knows when a zone changed, not when a user lost a share of it (the
/// participant is gone from the share, and nothing records that they were on it). The zones the
/// client was told of travel in its token instead, so the next `changes/database` reports each
/// zone it held but no longer does as deleted. A forged list can only make the server report as
/// deleted zones the client itself named.
///
/// ```swift
/// let token = SharedDatabaseToken(storeToken: changes.token, zones: [.init(owner: "_ada…", zoneName: "Trips")])
/// try SharedDatabaseToken(token.changeToken).zones   // [_ada…'s Trips]
/// ```
struct SharedDatabaseToken {
    /// A zone of the shared database: its owner and name.
    struct Zone: Hashable, Comparable {
        let owner: String
        let zoneName: String

        static func < (lhs: Zone, rhs: Zone) -> Bool { (lhs.owner, lhs.zoneName) < (rhs.owner, rhs.zoneName) }
    }

    /// The store's database token; nil for the first request.
    let storeToken: ChangeToken?
    /// The zones the client was told of.
    let zones: Set<Zone>

    init(storeToken: ChangeToken?, zones: Set<Zone>) {
        self.storeToken = storeToken
        self.zones = zones
    }

    /// The token a client sent (nil: the first request). `BAD_REQUEST` for text this server did
    /// not make for a shared database.
    init(_ token: ChangeToken?) throws(ServerError) {
        guard let token else {
            self.init(storeToken: nil, zones: [])
            return
        }
        let parts = token.stringValue.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let data = Self.base64URLDecoded(String(parts[1])),
              let list = try? JSONValue(parsing: data).arrayValue else {
            throw ServerError(.badRequest, "the syncToken was not made by this server for a shared database")
        }
        var zones = Set<Zone>()
        for entry in list {
            guard let pair = entry.arrayValue, pair.count == 2, let owner = pair[0].stringValue, let name = pair[1].stringValue else {
                throw ServerError(.badRequest, "the syncToken was not made by this server for a shared database")
            }
            zones.insert(Zone(owner: owner, zoneName: name))
        }
        self.init(storeToken: parts[0].isEmpty ? nil : ChangeToken(stringValue: String(parts[0])), zones: zones)
    }

    /// The token's text for the client.
    var changeToken: ChangeToken {
        let list = JSONValue.array(zones.sorted().map { .array([.string($0.owner), .string($0.zoneName)]) })
        let encoded = Data(list.jsonBytes()).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return ChangeToken(stringValue: (storeToken?.stringValue ?? "") + "." + encoded)
    }

    private static func base64URLDecoded(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
#endif

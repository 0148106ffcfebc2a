// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The body of `records/changes`: `zoneID` (a custom zone; required), `syncToken` (absent for
/// the first fetch), `resultsLimit` (1 to 200, default 200), `desiredKeys`, `numbersAsStrings`.
/// Each zone of `changes/zone` has the same keys, with `desiredRecordTypes`; the request's own
/// keys apply to every zone that does not give its own (``init(_:defaults:)``).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordZoneChangesRequest.self, from: ["zoneID": ["zoneName": "Notes"], "resultsLimit": 50])
/// request.resultsLimit   // 50
/// ```
struct RecordZoneChangesRequest: Decodable {
    let zoneID: ZoneIDRequest
    let syncToken: ChangeToken?
    let resultsLimit: Int
    let desiredKeys: [String]?
    let desiredRecordTypes: [String]?
    let numbersAsStrings: Bool

    /// What a zone of the request says, each key nil when it does not say it.
    struct Sent: Decodable {
        let zoneID: ZoneIDRequest
        let syncToken: ChangeToken?
        let resultsLimit: Int?
        let desiredKeys: [String]?
        let desiredRecordTypes: [String]?
        let numbersAsStrings: Bool?

        private enum CodingKeys: String, CodingKey {
            case zoneID, syncToken, resultsLimit, desiredKeys, desiredRecordTypes, numbersAsStrings
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID) else {
                throw ServerError(.badRequest, "\(container.path(.zoneID)) is required: fetching record changes is supported only for custom zones")
            }
            self.zoneID = zoneID
            syncToken = try container.decodeIfPresent(String.self, forKey: .syncToken).map(ChangeToken.init(stringValue:))
            resultsLimit = try container.decodeIfPresent(ResultsLimit.self, forKey: .resultsLimit)?.value
            desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
            desiredRecordTypes = try container.decodeIfPresent([String].self, forKey: .desiredRecordTypes)
            numbersAsStrings = try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings)
        }
    }

    init(from decoder: any Decoder) throws {
        self.init(try Sent(from: decoder), defaults: nil)
    }

    /// A zone of `changes/zone`, its missing keys taken from the request's.
    init(_ sent: Sent, defaults: DatabaseZoneChangesRequest.Defaults?) {
        zoneID = sent.zoneID
        syncToken = sent.syncToken
        resultsLimit = sent.resultsLimit ?? defaults?.resultsLimit ?? RequestLimits.maximumBatch
        desiredKeys = sent.desiredKeys ?? defaults?.desiredKeys
        desiredRecordTypes = sent.desiredRecordTypes ?? defaults?.desiredRecordTypes
        numbersAsStrings = sent.numbersAsStrings ?? defaults?.numbersAsStrings ?? false
    }
}

/// The body of `changes/zone`: `zones` (at most 200, each a ``RecordZoneChangesRequest``), and
/// the defaults for them: `resultsLimit`, `desiredKeys`, `desiredRecordTypes`, `numbersAsStrings`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(DatabaseZoneChangesRequest.self, from: ["zones": [["zoneID": ["zoneName": "Notes"]]]])
/// request.zones.count   // 1
/// ```
struct DatabaseZoneChangesRequest: Decodable {
    /// What the request says for every zone that does not say it itself.
    struct Defaults {
        let resultsLimit: Int
        let desiredKeys: [String]?
        let desiredRecordTypes: [String]?
        let numbersAsStrings: Bool
    }

    let zones: [RecordZoneChangesRequest]

    private enum CodingKeys: String, CodingKey {
        case zones, resultsLimit, desiredKeys, desiredRecordTypes, numbersAsStrings
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Defaults(
            resultsLimit: try container.resultsLimit(.resultsLimit), desiredKeys: try container.decodeIfPresent([String].self, forKey: .desiredKeys),
            desiredRecordTypes: try container.decodeIfPresent([String].self, forKey: .desiredRecordTypes),
            numbersAsStrings: try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings) ?? false)
        let zones = try container.decodeBatch([RecordZoneChangesRequest.Sent].self, forKey: .zones, maximumCount: RequestLimits.maximumBatch)
        self.zones = zones.map { RecordZoneChangesRequest($0, defaults: defaults) }
    }
}

/// The body of `changes/database` and `zones/changes`: `syncToken` (`zones/changes` also takes
/// its older name `metaSyncToken`; absent for the first fetch) and `resultsLimit`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(DatabaseChangesRequest.self, from: ["resultsLimit": 10])
/// request.syncToken   // nil
/// ```
struct DatabaseChangesRequest: Decodable {
    let syncToken: ChangeToken?
    let resultsLimit: Int

    private enum CodingKeys: String, CodingKey {
        case syncToken, metaSyncToken, resultsLimit
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var text = try container.decodeIfPresent(String.self, forKey: .syncToken)
        if text == nil { text = try container.decodeIfPresent(String.self, forKey: .metaSyncToken) }
        syncToken = text.map(ChangeToken.init(stringValue:))
        resultsLimit = try container.resultsLimit(.resultsLimit)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The body of `records/changes`: `zoneID` (a custom zone; required), `syncToken` (absent for
/// the first fetch), `resultsLimit` (1 to 200, default 200), `desiredKeys`, `numbersAsStrings`.
/// Each zone of `changes/zone` has the same keys, with `desiredRecordTypes`; the request's own
/// keys apply to every zone that does not give its own.
///
/// ```swift
/// let request = try RecordZoneChangesRequest(body: ["zoneID": ["zoneName": "Notes"], "resultsLimit": 50])
/// request.resultsLimit   // 50
/// ```
struct RecordZoneChangesRequest: RequestDecodable {
    let zoneID: ZoneIDRequest
    let syncToken: ChangeToken?
    let resultsLimit: Int
    let desiredKeys: [String]?
    let desiredRecordTypes: [String]?
    let numbersAsStrings: Bool

    init(_ object: RequestObject) throws(ServerError) {
        try self.init(object, defaults: nil)
    }

    /// A zone of `changes/zone`, its missing keys taken from the request's.
    init(_ object: RequestObject, defaults: DatabaseZoneChangesRequest.Defaults?) throws(ServerError) {
        guard let zoneID: ZoneIDRequest = try object.decode("zoneID") else {
            throw ServerError(.badRequest, "\(object.path("zoneID")) is required: fetching record changes is supported only for custom zones")
        }
        self.zoneID = zoneID
        syncToken = try object.string("syncToken").map(ChangeToken.init(stringValue:))
        resultsLimit = object.has("resultsLimit") ? try RecordsQueryRequest.resultsLimit(object) : defaults?.resultsLimit ?? RequestLimits.maximumBatch
        desiredKeys = try object.strings("desiredKeys") ?? defaults?.desiredKeys
        desiredRecordTypes = try object.strings("desiredRecordTypes") ?? defaults?.desiredRecordTypes
        numbersAsStrings = try object.bool("numbersAsStrings") ?? defaults?.numbersAsStrings ?? false
    }
}

/// The body of `changes/zone`: `zones` (at most 200, each a ``RecordZoneChangesRequest``), and
/// the defaults for them: `resultsLimit`, `desiredKeys`, `desiredRecordTypes`, `numbersAsStrings`.
///
/// ```swift
/// let request = try DatabaseZoneChangesRequest(body: ["zones": [["zoneID": ["zoneName": "Notes"]]]])
/// request.zones.count   // 1
/// ```
struct DatabaseZoneChangesRequest: RequestDecodable {
    /// What the request says for every zone that does not say it itself.
    struct Defaults {
        let resultsLimit: Int
        let desiredKeys: [String]?
        let desiredRecordTypes: [String]?
        let numbersAsStrings: Bool
    }

    let zones: [RecordZoneChangesRequest]

    init(_ object: RequestObject) throws(ServerError) {
        let defaults = Defaults(
            resultsLimit: try RecordsQueryRequest.resultsLimit(object), desiredKeys: try object.strings("desiredKeys"),
            desiredRecordTypes: try object.strings("desiredRecordTypes"), numbersAsStrings: try object.bool("numbersAsStrings") ?? false)
        let elements = try object.requiredArray("zones", "an array of objects", maximumCount: RequestLimits.maximumBatch)
        var zones: [RecordZoneChangesRequest] = []
        for (index, element) in elements.enumerated() {
            zones.append(try RecordZoneChangesRequest(RequestObject(element, path: "\(object.path("zones"))[\(index)]"), defaults: defaults))
        }
        self.zones = zones
    }
}

/// The body of `changes/database` and `zones/changes`: `syncToken` (`zones/changes` also takes
/// its older name `metaSyncToken`; absent for the first fetch) and `resultsLimit`.
///
/// ```swift
/// let request = try DatabaseChangesRequest(body: ["resultsLimit": 10])
/// request.syncToken   // nil
/// ```
struct DatabaseChangesRequest: RequestDecodable {
    let syncToken: ChangeToken?
    let resultsLimit: Int

    init(_ object: RequestObject) throws(ServerError) {
        var text = try object.string("syncToken")
        if text == nil { text = try object.string("metaSyncToken") }
        syncToken = text.map(ChangeToken.init(stringValue:))
        resultsLimit = try RecordsQueryRequest.resultsLimit(object)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// `zones/list`: the namespace's zones, its default zone first.
    public func listZones(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        _ = try await zone(nil, in: namespace)
        let store = try await bookkeepingStore(for: namespace.environment)
        let zones = try await run { () async throws(RecordStoreError) in try await store.zones() }
        var entries: [JSONValue] = []
        for zone in zones {
            guard let name = namespace.clientZoneName(zone) else { continue }
            entries.append(try await zoneJSON(name, stored: zone, in: namespace))
        }
        return .object(["zones": .array(entries)])
    }

    /// `zones/lookup`: zones by name (`zones: [{zoneName}]`), each found zone or a `ZONE_NOT_FOUND` entry.
    public func lookupZones(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(ZonesLookupRequest.self, from: body)
        _ = try await zone(nil, in: namespace)
        let store = try await bookkeepingStore(for: namespace.environment)
        let stored = Set(try await run { () async throws(RecordStoreError) in try await store.zones() })
        var entries: [JSONValue] = []
        for name in request.zones.map(\.zoneName) {
            let zone = try namespace.storedZone(name)
            if stored.contains(zone) {
                entries.append(try await zoneJSON(name, stored: zone, in: namespace))
            } else {
                entries.append(.object(["zoneID": WireRecord.zoneJSON(name), "serverErrorCode": .string(ServerErrorCode.zoneNotFound.rawValue),
                                        "reason": .string("zone '\(name)' does not exist")]))
            }
        }
        return .object(["zones": .array(entries)])
    }

    /// `zones/modify`: creates and deletes zones (`operations: [{operationType: create | delete,
    /// zone: {zoneID: {zoneName}}}]`). Deleting a zone deletes its records; the default zone
    /// cannot be deleted.
    public func modifyZones(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(ZonesModifyRequest.self, from: body)
        let store = try await bookkeepingStore(for: namespace.environment)
        var entries: [JSONValue] = []
        for operation in request.operations {
            let name = operation.zone.zoneName
            let zone = try namespace.storedZone(name)
            switch operation.operationType {
            case .create:
                try await run { () async throws(RecordStoreError) in try await store.createZone(zone) }
                entries.append(try await zoneJSON(name, stored: zone, in: namespace))
            case .delete:
                if name == ZoneID.default.zoneName {
                    entries.append(.object(["zoneID": WireRecord.zoneJSON(name), "serverErrorCode": .string(ServerErrorCode.badRequest.rawValue),
                                            "reason": .string("the default zone cannot be deleted")]))
                    continue
                }
                do {
                    try await store.deleteZone(zone)
                    entries.append(.object(["zoneID": WireRecord.zoneJSON(name), "deleted": .bool(true)]))
                } catch .zoneNotFound {
                    entries.append(.object(["zoneID": WireRecord.zoneJSON(name), "serverErrorCode": .string(ServerErrorCode.zoneNotFound.rawValue),
                                            "reason": .string("zone '\(name)' does not exist")]))
                } catch {
                    throw Self.serverError(error)
                }
            }
        }
        return .object(["zones": .array(entries)])
    }
}
#endif

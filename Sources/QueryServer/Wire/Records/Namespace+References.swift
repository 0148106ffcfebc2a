// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// References cross the wire in the client's zone names and are stored in the namespace's.
///
/// A reference names its record's zone. The store keeps a development or private database's
/// zones under a prefix (``Namespace``), so a reference a client sends as
/// `{recordName: "alice", zoneID: {zoneName: "_defaultZone"}}` to the development database is
/// stored as a reference to `development/_defaultZone`, and written back to the client as
/// `_defaultZone`. Everything that follows references then finds its records in the request's
/// own namespace: `DELETE_SELF` and deletion rules, walks such as `customer.name == "Alice"`,
/// and filters comparing a reference field with a reference.
///
/// ```swift
/// let namespace = Namespace(environment: .development, database: .public)
/// let sent = Value.reference(Reference(recordName: "alice"))
/// try namespace.storedValue(sent, path: "fields.customer")
/// // .reference(Reference(recordName: "alice", zoneName: "development/_defaultZone"))
/// ```
///
/// A reference stored before this translation (by a server that kept the client's zone name)
/// reads back unchanged: its zone name has no prefix of this namespace, so it is written as it is.
extension Namespace {
    /// A value as the store keeps it: each reference's zone, alone or in a list, in this
    /// namespace. `BAD_REQUEST` at `path` for a zone name a client may not send (one with `/`,
    /// which would reach into another namespace), in every namespace.
    func storedValue(_ value: Value, path: String) throws(ServerError) -> Value {
        switch value {
        case .reference(let reference):
            return .reference(try storedReference(reference, path: path))
        case .list(let members) where members.contains(where: \.isReference):
            var stored: [Value] = []
            stored.reserveCapacity(members.count)
            for (index, member) in members.enumerated() {
                stored.append(try storedValue(member, path: "\(path)[\(index)]"))
            }
            return .list(stored)
        default:
            return value
        }
    }

    /// Fields as the store keeps them (``storedValue(_:path:)``), each error naming its field
    /// under `path`.
    func storedFields(_ fields: [String: Value], path: String) throws(ServerError) -> [String: Value] {
        guard fields.values.contains(where: \.holdsReference) else { return fields }
        var stored = fields
        for (name, value) in fields where value.holdsReference {
            stored[name] = try storedValue(value, path: "\(path).\(name)")
        }
        return stored
    }

    /// A stored value as the client sees it: each reference into this namespace with its zone
    /// name as the client sent it. A reference to a zone outside the namespace stays as stored.
    func clientValue(_ value: Value) -> Value {
        switch value {
        case .reference(let reference):
            return .reference(clientReference(reference))
        case .list(let members) where members.contains(where: \.isReference):
            return .list(members.map(clientValue))
        default:
            return value
        }
    }

    private func storedReference(_ reference: Reference, path: String) throws(ServerError) -> Reference {
        // Assets (and uploads not yet resolved) are references into the store's reserved zones,
        // shared by every namespace; a client cannot send such a reference itself (``WireValue``).
        if AssetWire.isReserved(zoneName: reference.zoneName) { return reference }
        let zone: ZoneID
        do {
            zone = try storedZone(reference.zoneName)
        } catch {
            throw ServerError(error.code, "\(path): \(error.reason)")
        }
        return Reference(recordName: reference.recordName, zoneName: zone.zoneName)
    }

    private func clientReference(_ reference: Reference) -> Reference {
        guard !prefix.isEmpty, let name = clientZoneName(ZoneID(zoneName: reference.zoneName)) else { return reference }
        return Reference(recordName: reference.recordName, zoneName: name)
    }
}

extension Value {
    fileprivate var isReference: Bool {
        if case .reference = self { return true }
        return false
    }

    /// A reference, or a list holding one.
    fileprivate var holdsReference: Bool {
        switch self {
        case .reference: true
        case .list(let members): members.contains(where: \.isReference)
        default: false
        }
    }
}
#endif

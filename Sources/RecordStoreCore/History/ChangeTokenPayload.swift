/// The signed content of a ``ChangeToken``: a version byte, the store's identifier, what the
/// token continues (one zone, or the database's zones) and the place in the history after which
/// the next read starts (``HistoryPosition``).
///
/// ```swift
/// let payload = ChangeTokenPayload(storeIdentifier: id, scope: .zone(.default), after: HistoryPosition(position: 42))
/// let token = signer.sign(payload)
/// ```
package struct ChangeTokenPayload: Sendable, Hashable {
    /// Unlike a cursor's (1), so that neither is read as the other.
    package static let version: UInt8 = 0x48

    /// What a token continues.
    package enum Scope: Sendable, Hashable {
        /// The records of one zone.
        case zone(ZoneID)
        /// The database's zones.
        case database
    }

    package var storeIdentifier: [UInt8]
    package var scope: Scope
    package var after: HistoryPosition

    package init(storeIdentifier: [UInt8], scope: Scope, after: HistoryPosition) {
        self.storeIdentifier = storeIdentifier
        self.scope = scope
        self.after = after
    }

    /// The binary form.
    package func encoded() -> [UInt8] {
        var writer = CursorByteWriter()
        writer.byte(Self.version)
        writer.bytes(storeIdentifier)
        switch scope {
        case .zone(let zone):
            writer.byte(0)
            writer.string(zone.zoneName)
        case .database:
            writer.byte(1)
        }
        writer.integer(after.position)
        if let name = after.name {
            writer.byte(1)
            writer.string(name)
        } else {
            writer.byte(0)
        }
        return writer.output
    }

    /// Decodes the binary form; nil when it is not a well-formed payload.
    package init?(decoding bytes: [UInt8]) {
        var reader = CursorByteReader(bytes)
        guard reader.byte() == Self.version, let storeIdentifier = reader.bytes(16), let kind = reader.byte() else { return nil }
        switch kind {
        case 0:
            guard let zoneName = reader.string(), !zoneName.isEmpty else { return nil }
            scope = .zone(ZoneID(zoneName: zoneName))
        case 1:
            scope = .database
        default:
            return nil
        }
        guard let position = reader.integer(), position >= 0, let hasName = reader.byte() else { return nil }
        var name: String?
        if hasName == 1 {
            guard let text = reader.string() else { return nil }
            name = text
        } else if hasName != 0 {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        self.storeIdentifier = storeIdentifier
        self.after = HistoryPosition(position: position, name: name)
    }
}

extension CursorSigner {
    /// The token of a change-history payload.
    package func sign(_ payload: ChangeTokenPayload) -> ChangeToken {
        ChangeToken(stringValue: seal(payload.encoded()))
    }

    /// The payload of a change token this store signed, or the reason it is refused
    /// (``RecordStoreError/invalidChangeToken(_:)``).
    package func open(_ token: ChangeToken) throws(RecordStoreError) -> ChangeTokenPayload {
        let bytes = try unseal(token.stringValue, version: ChangeTokenPayload.version, refusal: RecordStoreError.invalidChangeToken)
        guard let payload = ChangeTokenPayload(decoding: bytes) else { throw .invalidChangeToken(.malformed) }
        return payload
    }
}

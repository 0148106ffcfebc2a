/// The compact bytes a commit's description travels as, without its record contents: in
/// SQLite's change log (``SQLiteChangeLog``) and, base64-encoded, in PostgreSQL notifications.
///
/// A version byte, the sequence, then the entries (kind, zone, record name, record type,
/// previous type) and the unlisted scopes, every string and count a LEB128 length or number.
///
/// ```swift
/// let bytes = CommittedChangesCoding.encode(changes)
/// let again = try CommittedChangesCoding.decode(bytes)   // equal, minus `savedRecords`
/// ```
@_spi(StorageEngine) public enum CommittedChangesCoding {
    /// The format's version, the first byte.
    @_spi(StorageEngine) public static let version: UInt8 = 1

    /// The description as bytes with its records listed while that takes at most `longest`
    /// bytes; a larger commit (an import's batch) is encoded by its record types instead
    /// (``CommittedChanges/summarized``), and its observers read those types again. SQLite's
    /// change log and PostgreSQL's notifications both send commits so.
    ///
    /// ```swift
    /// let bytes = CommittedChangesCoding.encode(changes, listingAtMost: 8_000)
    /// ```
    @_spi(StorageEngine) public static func encode(_ changes: CommittedChanges, listingAtMost longest: Int) -> [UInt8] {
        let listed = encode(changes)
        return listed.count > longest ? encode(changes.summarized) : listed
    }

    /// The description as bytes (the saved records are left out).
    @_spi(StorageEngine) public static func encode(_ changes: CommittedChanges) -> [UInt8] {
        var output: [UInt8] = [version]
        output.reserveCapacity(16 + changes.entries.count * 32)
        appendNumber(UInt64(bitPattern: changes.sequence), to: &output)
        appendNumber(UInt64(changes.entries.count), to: &output)
        for entry in changes.entries {
            output.append(entry.kind.rawValue)
            appendString(entry.recordID.zoneID.zoneName, to: &output)
            appendString(entry.recordID.recordName, to: &output)
            appendString(entry.recordType, to: &output)
            appendString(entry.previousRecordType ?? "", to: &output)
        }
        appendNumber(UInt64(changes.unlisted.count), to: &output)
        for scope in changes.unlisted {
            appendString(scope.zone.zoneName, to: &output)
            appendString(scope.recordType ?? "", to: &output)
        }
        return output
    }

    /// Reads what ``encode(_:)`` wrote.
    @_spi(StorageEngine) public static func decode(_ bytes: [UInt8]) throws(RecordStoreError) -> CommittedChanges {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == version, let sequence = reader.number(), let entryCount = reader.count() else {
            throw .storage("a change notification is not in a format this version reads")
        }
        var entries: [CommittedChanges.Entry] = []
        entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            guard let kindByte = reader.byte(), let kind = CommittedChanges.Kind(rawValue: kindByte),
                  let zone = reader.string(), let name = reader.string(), let type = reader.string(),
                  let previous = reader.string() else {
                throw .storage("a change notification is cut short or damaged")
            }
            entries.append(CommittedChanges.Entry(
                kind: kind, recordID: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone)), recordType: type,
                previousRecordType: previous.isEmpty ? nil : previous))
        }
        guard let scopeCount = reader.count() else { throw .storage("a change notification is cut short or damaged") }
        var scopes: [CommittedChanges.Scope] = []
        for _ in 0..<scopeCount {
            guard let zone = reader.string(), let type = reader.string() else {
                throw .storage("a change notification is cut short or damaged")
            }
            scopes.append(CommittedChanges.Scope(zone: ZoneID(zoneName: zone), recordType: type.isEmpty ? nil : type))
        }
        guard reader.isAtEnd else { throw .storage("a change notification has bytes past its end") }
        return CommittedChanges(sequence: Int64(bitPattern: sequence), entries: entries, unlisted: scopes)
    }

    private static func appendNumber(_ value: UInt64, to output: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }

    private static func appendString(_ text: String, to output: inout [UInt8]) {
        appendNumber(UInt64(text.utf8.count), to: &output)
        output.append(contentsOf: text.utf8)
    }

    /// Reads numbers and strings; nil past the end or on bad data.
    private struct Reader {
        @_spi(StorageEngine) public let bytes: [UInt8]
        @_spi(StorageEngine) public var position = 0

        @_spi(StorageEngine) public var isAtEnd: Bool { position == bytes.count }

        @_spi(StorageEngine) public mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        @_spi(StorageEngine) public mutating func number() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        /// A count no larger than the bytes left (each counted item takes at least one byte).
        @_spi(StorageEngine) public mutating func count() -> Int? {
            guard let value = number(), value <= UInt64(bytes.count - position) else { return nil }
            return Int(value)
        }

        @_spi(StorageEngine) public mutating func string() -> String? {
            guard let length = count() else { return nil }
            defer { position += length }
            return String(validating: bytes[position..<(position + length)], as: UTF8.self)
        }
    }
}

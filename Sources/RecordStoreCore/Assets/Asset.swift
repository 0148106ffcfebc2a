import Foundation
import PredicateLanguage

/// A file kept beside the store's records, named by its content: the SHA-256 checksum of its
/// bytes and their size. A record holds an asset in a field (``value``); the bytes are put and
/// read through the store (`store.saveAsset(_:)`, `store.assetData(_:)`, or in chunks as they
/// arrive and leave: `store.beginAsset(maximumSize:)`, `store.assetChunks(_:)`), and kept where
/// the engine keeps them (files beside a SQLite store, tables on PostgreSQL, memory).
///
/// ```swift
/// let asset = try store.saveAsset(Data("hello".utf8))
/// var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
/// note["attachment"] = asset.value
/// try store.save([note])
/// let bytes = try store.assetData(Asset(note["attachment"])!)   // "hello"
/// ```
///
/// How an asset is stored in a record, and why: as an existing value kind, a `Value.reference(_:)`
/// to a record named `sha256-<64 hex digits>-<size>` in the reserved zone ``zoneName`` (`$assets`),
/// rather than as a new case of `Value`.
/// - A new `Value` case would ripple through every exhaustive switch of the predicate language
///   (evaluator, ordering, printing, JSON, casts) and of the SQL engines (column types, stored
///   encodings, spellings), for a value that predicates never look inside: an asset is only ever
///   tested for presence (`attachment != nil`) or equality.
/// - A reference is already stored, indexed and compared by every engine, has a schema type
///   (``FieldType/reference``), survives every round trip (the command line's JSON, the change
///   feed, `Codable` models through `Reference`), and is exactly what an asset is: a pointer to
///   content kept elsewhere, addressed by its checksum. The reserved zone marks it, so the value
///   needs no schema lookup to be recognised (the server answers it as an `ASSETID` while it writes
///   records straight into bytes). A reference walk (`attachment.name`) reads nil, as for any
///   record that does not exist.
/// - A string with a marker, the other existing kind that could carry it, would be taken for
///   text by full-text search, `[c]` folding and sort keys, and could be mistaken for a user's
///   string; no record can be stored in the zone `$assets` by a CloudKit client (the server refuses
///   a `REFERENCE` into it), so the reference form is unambiguous.
/// - In the schema, CloudKit's `ASSET` type (``CloudKitSchemaFieldType/asset``) is stored as a
///   reference field (its ``CloudKitSchemaFieldType/storeType``), without indexes, as CloudKit keeps
///   none on assets; a schema read back from the store calls such a field `REFERENCE`.
public struct Asset: Sendable, Hashable, CustomStringConvertible {
    /// The zone name of an asset's reference: no record lives there.
    public static let zoneName = "$assets"

    /// The most bytes that move at once between the store and its engine's asset storage
    /// (256 KiB): uploads and downloads hold about this much of an asset, whatever its size.
    public static let chunkSize = 256 << 10

    /// The SHA-256 digest of the asset's bytes (32 bytes).
    public let checksum: [UInt8]
    /// The number of bytes.
    public let size: Int64

    /// The asset of some bytes: their checksum and size.
    ///
    /// ```swift
    /// Asset(bytes: Data("hello".utf8)).size   // 5
    /// ```
    public init(bytes: Data) {
        var hasher = SHA256Digest.Hasher()
        hasher.update(bytes)
        self.init(digest: hasher.finalize(), size: Int64(bytes.count))
    }

    /// The asset of a SHA-256 digest (32 bytes, as ``SHA256Digest`` gives it) and a size.
    init(digest: [UInt8], size: Int64) {
        checksum = digest
        self.size = size
    }

    /// An asset given by its checksum (32 bytes) and size; nil when the checksum is not 32 bytes or
    /// the size is negative.
    ///
    /// ```swift
    /// Asset(checksum: Array(repeating: 0, count: 32), size: 0)
    /// ```
    public init?(checksum: [UInt8], size: Int64) {
        guard checksum.count == SHA256Digest.byteCount, size >= 0 else { return nil }
        self.checksum = checksum
        self.size = size
    }

    /// The asset a field value holds, or nil when it holds none.
    ///
    /// ```swift
    /// Asset(record["attachment"])?.size
    /// ```
    public init?(_ value: Value?) {
        guard case .reference(let reference)? = value, reference.zoneName == Self.zoneName else { return nil }
        self.init(recordName: reference.recordName)
    }

    /// The asset of a reference's record name, `sha256-<hex>-<size>`.
    private init?(recordName: String) {
        let parts = recordName.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256", parts[1].utf8.count == 64,
              let size = Int64(parts[2]), String(size) == parts[2] else { return nil }
        var checksum: [UInt8] = []
        checksum.reserveCapacity(32)
        var index = parts[1].startIndex
        while index < parts[1].endIndex {
            let next = parts[1].index(index, offsetBy: 2)
            guard let byte = UInt8(parts[1][index..<next], radix: 16) else { return nil }
            checksum.append(byte)
            index = next
        }
        self.init(checksum: checksum, size: size)
    }

    /// The checksum as 64 lower-case hex digits.
    public var checksumHex: String {
        Hexadecimal.lowercase(checksum)
    }

    /// The checksum in base64, as CloudKit's `fileChecksum` spells it.
    public var fileChecksum: String { Data(checksum).base64EncodedString() }

    /// The value a record field holds for this asset: a reference into ``zoneName``.
    ///
    /// ```swift
    /// record["attachment"] = asset.value
    /// ```
    public var value: Value {
        .reference(Reference(recordName: "sha256-\(checksumHex)-\(size)", zoneName: Self.zoneName))
    }

    /// `sha256:<hex> (<size> bytes)`.
    public var description: String { "sha256:\(checksumHex) (\(size) bytes)" }
}

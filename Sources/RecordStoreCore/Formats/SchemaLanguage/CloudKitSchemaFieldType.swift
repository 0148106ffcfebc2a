/// The type of a field in CloudKit's schema language (`.ckdb`): a primitive type, optionally
/// `ENCRYPTED`, or a `LIST<…>` of one. Lists do not nest.
///
/// ```swift
/// CloudKitSchemaFieldType.list(.string).description       // "LIST<STRING>"
/// CloudKitSchemaFieldType.encrypted(.bytes).description   // "ENCRYPTED BYTES"
/// CloudKitSchemaFieldType.timestamp.storeType             // .date
/// ```
///
/// In JSON it is its schema-language text (`"LIST<STRING>"`).
public indirect enum CloudKitSchemaFieldType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `STRING`: text.
    case string
    /// `INT64`: a 64-bit signed integer (also how CloudKit stores booleans).
    case int64
    /// `DOUBLE`: a double-precision number.
    case double
    /// `TIMESTAMP`: a date.
    case timestamp
    /// `BYTES`: raw bytes.
    case bytes
    /// `REFERENCE`: a reference to another record.
    case reference
    /// `ASSET`: a file stored beside the record, held in a field as a reference to it (``Asset``).
    case asset
    /// `LOCATION`: a geographic location.
    case location
    /// `NUMBER [PREFERRED AS INT64 | DOUBLE]`: a number a sandbox container added implicitly;
    /// `preferredAs` is `.int64`, `.double` or nil.
    case number(preferredAs: CloudKitSchemaFieldType?)
    /// `ENCRYPTED …`: an encrypted `BYTES`, `STRING`, `DOUBLE`, `INT64`, `LOCATION` or `TIMESTAMP`.
    case encrypted(CloudKitSchemaFieldType)
    /// `LIST<…>`: a list of a primitive type.
    case list(CloudKitSchemaFieldType)

    /// The type as the schema language spells it: `LIST<STRING>`, `NUMBER PREFERRED AS INT64`.
    public var description: String {
        switch self {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .timestamp: "TIMESTAMP"
        case .bytes: "BYTES"
        case .reference: "REFERENCE"
        case .asset: "ASSET"
        case .location: "LOCATION"
        case .number(let preferred?): "NUMBER PREFERRED AS \(preferred)"
        case .number(.none): "NUMBER"
        case .encrypted(let base): "ENCRYPTED \(base)"
        case .list(let element): "LIST<\(element)>"
        }
    }

    /// The store's type for this type, or nil when the store has none: `ENCRYPTED …` and `NUMBER`
    /// without `PREFERRED AS` (and lists of them). An `ASSET` is stored as a reference (``Asset``).
    ///
    /// ```swift
    /// CloudKitSchemaFieldType.list(.timestamp).storeType   // .list(.date)
    /// CloudKitSchemaFieldType.asset.storeType              // .reference
    /// ```
    public var storeType: FieldType? {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .timestamp: .date
        case .bytes: .bytes
        case .reference: .reference
        case .location: .location
        case .number(.int64?): .int64
        case .number(.double?): .double
        case .asset: .reference
        case .number, .encrypted: nil
        case .list(let element): element.storeType.map { FieldType.list($0) }
        }
    }

    /// The schema-language type for a store type. `bool` becomes `INT64`, as CloudKit stores
    /// booleans (0 or 1); `date` becomes `TIMESTAMP`.
    ///
    /// ```swift
    /// CloudKitSchemaFieldType(storeType: .bool)             // .int64
    /// CloudKitSchemaFieldType(storeType: .list(.date))      // .list(.timestamp)
    /// ```
    public init(storeType: FieldType) {
        switch storeType {
        case .string: self = .string
        case .int64, .bool: self = .int64
        case .double: self = .double
        case .date: self = .timestamp
        case .bytes: self = .bytes
        case .location: self = .location
        case .reference: self = .reference
        case .list(let element): self = .list(CloudKitSchemaFieldType(storeType: element))
        }
    }

    /// Whether fields of this type may be `SORTABLE`: `STRING`, `INT64`, `DOUBLE`, `TIMESTAMP`
    /// and `NUMBER`, the types the store sorts by.
    public var allowsSortable: Bool {
        switch self {
        case .string, .int64, .double, .timestamp, .number: true
        default: false
        }
    }

    /// Whether fields of this type may be `SEARCHABLE` (full-text search): `STRING` only.
    public var allowsSearchable: Bool { self == .string }

    /// Whether fields of this type may carry an index at all: not assets, not encrypted fields
    /// (CloudKit indexes neither), and not lists of them.
    public var allowsIndexes: Bool {
        switch self {
        case .asset, .encrypted: false
        case .list(let element): element.allowsIndexes
        default: true
        }
    }

    /// Encodes the type as its schema-language text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes a type from its schema-language text (`"LIST<STRING>"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try SchemaLanguageParser.parseFieldType(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a schema-language type '\(text)': \(error)")
        }
    }
}

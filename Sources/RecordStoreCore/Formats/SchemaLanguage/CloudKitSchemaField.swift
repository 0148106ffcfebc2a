/// One field of a record type in a `.ckdb` document: its name, type and index attributes.
/// System fields (`"___recordID"`, `"___createTime"`, …) are kept with their attributes but are
/// not store fields.
///
/// ```swift
/// let name = CloudKitSchemaField(name: "name", type: .string, isQueryable: true, isSortable: true)
/// name.isSystemField                       // false
/// CloudKitSchemaField(name: "___recordID", type: .reference, isQueryable: true).isSystemField   // true
/// ```
public struct CloudKitSchemaField: Sendable, Hashable, Codable {
    /// The field's name, without quotes.
    public var name: String
    /// The field's type.
    public var type: CloudKitSchemaFieldType
    /// `QUERYABLE`: an index for equality and range tests.
    public var isQueryable: Bool
    /// `SORTABLE`: an index for sorting and ranges.
    public var isSortable: Bool
    /// `SEARCHABLE`: a full-text index (strings only).
    public var isSearchable: Bool
    /// The line the field was declared on, when it was parsed from text. Not part of equality
    /// and not encoded.
    public var sourceLine: Int?

    /// The six fields every record type has: `___createTime`, `___createdBy`, `___etag`,
    /// `___modTime`, `___modifiedBy`, `___recordID`, in the order `cktool export-schema` prints them,
    /// with their types.
    ///
    /// ```swift
    /// CloudKitSchemaField.systemFieldTypes.first?.name   // "___createTime"
    /// ```
    public static let systemFieldTypes: [(name: String, type: CloudKitSchemaFieldType)] = [
        ("___createTime", .timestamp), ("___createdBy", .reference), ("___etag", .string),
        ("___modTime", .timestamp), ("___modifiedBy", .reference), ("___recordID", .reference),
    ]

    /// The system fields as `cktool export-schema` prints them for a record type whose system
    /// fields carry no extra attributes: only `"___recordID" REFERENCE QUERYABLE` has an index.
    ///
    /// ```swift
    /// CloudKitSchemaField.defaultSystemFields.last?.isQueryable   // true
    /// ```
    public static var defaultSystemFields: [CloudKitSchemaField] {
        systemFieldTypes.map { CloudKitSchemaField(name: $0.name, type: $0.type, isQueryable: $0.name == "___recordID") }
    }

    /// The type a system field has, or nil when `name` is not a system field's.
    ///
    /// ```swift
    /// CloudKitSchemaField.systemFieldType(named: "___etag")   // .string
    /// ```
    public static func systemFieldType(named name: String) -> CloudKitSchemaFieldType? {
        systemFieldTypes.first { $0.name == name }?.type
    }

    /// Whether this is one of the six system fields.
    public var isSystemField: Bool { Self.systemFieldType(named: name) != nil }

    /// Creates a field.
    ///
    /// ```swift
    /// CloudKitSchemaField(name: "tags", type: .list(.string), isQueryable: true)
    /// ```
    public init(
        name: String, type: CloudKitSchemaFieldType, isQueryable: Bool = false, isSortable: Bool = false,
        isSearchable: Bool = false, sourceLine: Int? = nil
    ) {
        self.name = name
        self.type = type
        self.isQueryable = isQueryable
        self.isSortable = isSortable
        self.isSearchable = isSearchable
        self.sourceLine = sourceLine
    }

    /// The attributes as the language prints them, in `cktool`'s order: `QUERYABLE SEARCHABLE SORTABLE`.
    public var attributesText: String {
        [isQueryable ? "QUERYABLE" : nil, isSearchable ? "SEARCHABLE" : nil, isSortable ? "SORTABLE" : nil]
            .compactMap { $0 }.joined(separator: " ")
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, isQueryable, isSortable, isSearchable
    }

    /// Equal when name, type and attributes are; the source line is ignored.
    public static func == (left: CloudKitSchemaField, right: CloudKitSchemaField) -> Bool {
        left.name == right.name && left.type == right.type && left.isQueryable == right.isQueryable
            && left.isSortable == right.isSortable && left.isSearchable == right.isSearchable
    }

    /// Hashes name, type and attributes (not the source line).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(isQueryable)
        hasher.combine(isSortable)
        hasher.combine(isSearchable)
    }
}

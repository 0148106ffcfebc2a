/// A `RECORD TYPE` of a `.ckdb` document: its name, fields (system fields included) and grants.
///
/// ```swift
/// let city = CloudKitSchemaRecordType(name: "City", fields: [
///     CloudKitSchemaField(name: "name", type: .string, isQueryable: true, isSearchable: true),
/// ], grants: [CloudKitSchemaGrant(permissions: [.read], role: "_world")])
/// city.userFields.count   // 1
/// ```
public struct CloudKitSchemaRecordType: Sendable, Hashable, Codable {
    /// The record type's name, without quotes.
    public var name: String
    /// The fields in the order written, system fields included.
    public var fields: [CloudKitSchemaField]
    /// The `GRANT` lines, in the order written.
    public var grants: [CloudKitSchemaGrant]
    /// The line the record type was declared on, when parsed from text. Not part of equality and
    /// not encoded.
    public var sourceLine: Int?

    /// Creates a record type.
    ///
    /// ```swift
    /// CloudKitSchemaRecordType(name: "Tag", fields: CloudKitSchemaField.defaultSystemFields)
    /// ```
    public init(name: String, fields: [CloudKitSchemaField] = [], grants: [CloudKitSchemaGrant] = [], sourceLine: Int? = nil) {
        self.name = name
        self.fields = fields
        self.grants = grants
        self.sourceLine = sourceLine
    }

    /// The system fields present, in `cktool`'s fixed order (`___createTime` … `___recordID`).
    public var systemFields: [CloudKitSchemaField] {
        CloudKitSchemaField.systemFieldTypes.compactMap { system in fields.first { $0.name == system.name } }
    }

    /// The fields that are not system fields, in the order written: the store's fields.
    public var userFields: [CloudKitSchemaField] {
        fields.filter { !$0.isSystemField }
    }

    /// The field with this name, if any.
    ///
    /// ```swift
    /// city.field(named: "name")?.isSearchable   // true
    /// ```
    public func field(named name: String) -> CloudKitSchemaField? {
        fields.first { $0.name == name }
    }

    private enum CodingKeys: String, CodingKey {
        case name, fields, grants
    }

    /// Equal when name, fields and grants are; the source line is ignored.
    public static func == (left: CloudKitSchemaRecordType, right: CloudKitSchemaRecordType) -> Bool {
        left.name == right.name && left.fields == right.fields && left.grants == right.grants
    }

    /// Hashes name, fields and grants (not the source line).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(fields)
        hasher.combine(grants)
    }
}

/// A schema in CloudKit's schema language: the `.ckdb` text `cktool export-schema` writes and
/// `cktool import-schema` reads: roles, record types, their fields (system fields included)
/// with their index attributes, and their `GRANT` lines. Comments are not kept.
///
/// ```swift
/// let document = try CloudKitSchemaDocument(parsing: """
///     DEFINE SCHEMA
///         RECORD TYPE City (
///             "___recordID" REFERENCE QUERYABLE,
///             name          STRING QUERYABLE SORTABLE SEARCHABLE,
///             GRANT READ TO "_world"
///         );
///     """)
/// document.recordTypes[0].userFields.map(\.name)   // ["name"]
/// print(document.ckdbText)                          // the canonical layout
/// ```
///
/// `Store.apply(_:)` creates its record types and fields in a store, and keeps its roles and
/// grants as the store's ``SecurityPolicy`` (which a server enforces in the public database).
public struct CloudKitSchemaDocument: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The roles `CREATE ROLE` lines create, in the order written.
    public var roles: [String]
    /// The record types, in the order written.
    public var recordTypes: [CloudKitSchemaRecordType]

    /// Creates a document.
    ///
    /// ```swift
    /// CloudKitSchemaDocument(roles: ["Moderator"], recordTypes: [CloudKitSchemaRecordType(name: "Tag")])
    /// ```
    public init(roles: [String] = [], recordTypes: [CloudKitSchemaRecordType] = []) {
        self.roles = roles
        self.recordTypes = recordTypes
    }

    /// Parses schema-language text. Keywords are case-insensitive; `//`, `--` and `/* */`
    /// comments are skipped; an error names the line and column.
    ///
    /// ```swift
    /// let document = try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE Tag (label STRING);")
    /// ```
    public init(parsing text: String) throws(SchemaLanguageError) {
        self = try SchemaLanguageParser.parseDocument(text)
    }

    /// The document for a store's schema, as `query schema export` prints it: every record type
    /// with the six system fields in their default form (`"___recordID" REFERENCE QUERYABLE`,
    /// the others without attributes), then its fields with their indexes, and no grants (the
    /// store keeps none). A `bool` field becomes `INT64`, as CloudKit stores booleans; applying
    /// that `INT64` back to the same store keeps the field `bool`.
    ///
    /// ```swift
    /// let document = CloudKitSchemaDocument(storeSchema: try store.schema())
    /// ```
    public init(storeSchema: [RecordTypeSchema]) {
        self.init(recordTypes: storeSchema.map { recordType in
            CloudKitSchemaRecordType(name: recordType.name, fields: CloudKitSchemaField.defaultSystemFields + recordType.fields.filter { !SchemaCatalog.reservedFieldNames.contains($0.name) }.map { field in
                CloudKitSchemaField(
                    name: field.name, type: CloudKitSchemaFieldType(storeType: field.type),
                    isQueryable: field.isQueryable, isSortable: field.isSortable, isSearchable: field.isSearchable)
            })
        })
    }

    /// How many `GRANT` lines the record types hold.
    public var grantCount: Int {
        recordTypes.reduce(0) { $0 + $1.grants.count }
    }

    /// The document in the canonical layout of `cktool export-schema`: roles first, then each
    /// record type with its system fields in their fixed order, its other fields in the order
    /// written, names padded to one column, and its grants last.
    ///
    /// ```swift
    /// print(document.ckdbText)
    /// // DEFINE SCHEMA
    /// //
    /// //     RECORD TYPE Tag (
    /// //         label STRING
    /// //     );
    /// ```
    public var ckdbText: String {
        if roles.isEmpty, recordTypes.isEmpty { return "DEFINE SCHEMA\n" }
        var lines = ["DEFINE SCHEMA", ""]
        for role in roles {
            lines.append("    CREATE ROLE \(SchemaLanguageIdentifier.printed(role));")
        }
        if !roles.isEmpty, !recordTypes.isEmpty { lines.append("") }
        for (index, recordType) in recordTypes.enumerated() {
            if index > 0 { lines.append("") }
            lines.append("    RECORD TYPE \(SchemaLanguageIdentifier.printed(recordType.name)) (")
            let fields = recordType.systemFields + recordType.userFields
            let width = fields.map { SchemaLanguageIdentifier.printed($0.name).count }.max() ?? 0
            var items: [String] = fields.map { field in
                let name = SchemaLanguageIdentifier.printed(field.name)
                let padded = name + String(repeating: " ", count: width - name.count)
                let attributes = field.attributesText
                return "\(padded) \(field.type)" + (attributes.isEmpty ? "" : " \(attributes)")
            }
            items += recordType.grants.map(\.description)
            for (position, item) in items.enumerated() {
                lines.append("        \(item)" + (position < items.count - 1 ? "," : ""))
            }
            lines.append("    );")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same as ``ckdbText``.
    public var description: String { ckdbText }
}

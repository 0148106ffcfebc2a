import Foundation
import PredicateLanguage

/// A record: a typed bag of fields with an identity and metadata, as `CKRecord`.
///
/// Fields hold `Value`s of the types ``FieldType`` lists (strings, 64-bit integers,
/// doubles, booleans, dates, bytes, locations, references, and lists of each).
/// The store sets the metadata (`creationDate`, `modificationDate`, `recordChangeTag`,
/// and the users who created and last modified the record when a save names its author)
/// when it saves a record.
///
/// ```swift
/// var paris = Record(recordType: "City", recordID: RecordID(recordName: "2988507"))
/// paris["name"] = "Paris"
/// paris["population"] = 2_138_551
/// let saved = try store.save([paris])[0]
/// saved.recordChangeTag   // "1f3a9c2e"
/// ```
public struct Record: Sendable, Hashable {
    /// The record's identity.
    public var recordID: RecordID
    /// The record's type, as a table name: letters, digits and underscores, starting with a letter.
    public var recordType: String
    /// The field values by field name. A field set to `.null` is the same as a missing field.
    public var fields: [String: Value]
    /// When the record was first saved; nil before that.
    public internal(set) var creationDate: Date?
    /// When the record was last saved; nil before the first save.
    public internal(set) var modificationDate: Date?
    /// The user whose save created the record (`CKRecord.creatorUserRecordID`'s record name),
    /// when that save named an author (`Store.modify(saving:deleting:expectedChangeTags:atomically:author:mergePolicy:)`);
    /// nil otherwise.
    public internal(set) var creatorUserRecordName: String?
    /// The user whose save last changed the record (`CKRecord.lastModifiedUserRecordID`'s
    /// record name), when that save named an author; nil otherwise.
    public internal(set) var lastModifiedUserRecordName: String?
    /// The version the store gave this record when it was last saved: a save of a
    /// record whose change tag differs from the stored one is a conflict.
    /// Nil for a record that was never saved.
    public var recordChangeTag: String?

    /// Creates a record that has not been saved yet.
    public init(recordType: String, recordID: RecordID, fields: [String: Value] = [:]) {
        self.recordType = recordType
        self.recordID = recordID
        self.fields = fields
    }

    /// Creates a record with all of its metadata, as an engine reads it back.
    @_spi(StorageEngine) public init(
        recordType: String, recordID: RecordID, fields: [String: Value],
        creationDate: Date?, modificationDate: Date?, recordChangeTag: String?,
        creatorUserRecordName: String? = nil, lastModifiedUserRecordName: String? = nil
    ) {
        self.recordType = recordType
        self.recordID = recordID
        self.fields = fields
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.recordChangeTag = recordChangeTag
        self.creatorUserRecordName = creatorUserRecordName
        self.lastModifiedUserRecordName = lastModifiedUserRecordName
    }

    /// The value of a field, or nil when the record has no such field.
    ///
    /// ```swift
    /// record["population"] = 2_138_551
    /// record["population"]   // .int(2138551)
    /// ```
    public subscript(field: String) -> Value? {
        get { fields[field] }
        set {
            if let newValue, !newValue.isNull {
                fields[field] = newValue
            } else {
                fields[field] = nil
            }
        }
    }
}

extension Record {
    /// The metadata names usable in predicates and sorts like fields.
    ///
    /// ```swift
    /// try store.records(ofType: "City", matching: FormatPredicate(format: "recordName BEGINSWITH '29'"))
    /// ```
    public static let metadataFieldNames: Set<String> = [
        MetadataField.recordName.rawValue, MetadataField.creationDate.rawValue,
        MetadataField.modificationDate.rawValue, MetadataField.recordChangeTag.rawValue,
        MetadataField.creatorUserRecordName.rawValue, MetadataField.lastModifiedUserRecordName.rawValue,
    ]

    /// The value of a field or metadata name as a predicate sees it (`.null` when missing).
    ///
    /// ```swift
    /// record.value(named: "recordName")   // .string("2988507")
    /// ```
    public func value(named name: String) -> Value {
        if let metadata = MetadataField(rawValue: name) {
            return metadataValue(metadata)
        }
        return fields[name] ?? .null
    }

    /// The value of one metadata field.
    @_spi(StorageEngine) public func metadataValue(_ field: MetadataField) -> Value {
        switch field {
        case .recordName: .string(recordID.recordName)
        case .creationDate: creationDate.map(Value.date) ?? .null
        case .modificationDate: modificationDate.map(Value.date) ?? .null
        case .recordChangeTag: recordChangeTag.map(Value.string) ?? .null
        case .creatorUserRecordName: creatorUserRecordName.map(Value.string) ?? .null
        case .lastModifiedUserRecordName: lastModifiedUserRecordName.map(Value.string) ?? .null
        }
    }
}

/// The record metadata that predicates and sorts can name like fields.
@_spi(StorageEngine) public enum MetadataField: String, CaseIterable, Sendable {
    case recordName
    case creationDate
    case modificationDate
    case recordChangeTag
    case creatorUserRecordName
    case lastModifiedUserRecordName

    /// The type the metadata value has.
    @_spi(StorageEngine) public var fieldType: FieldType {
        switch self {
        case .recordName, .recordChangeTag, .creatorUserRecordName, .lastModifiedUserRecordName: .string
        case .creationDate, .modificationDate: .date
        }
    }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The field a filter or sort names: a record field (`fieldName`), a system field
/// (`systemFieldName`, or its `___` field name), or every searchable field (`allTokens`).
///
/// | CloudKit | the store's key |
/// |---|---|
/// | `recordName`, `___recordID` | `recordName` |
/// | `createdTimestamp`, `___createTime` | `creationDate` |
/// | `modifiedTimestamp`, `___modTime` | `modificationDate` |
/// | `createdUserRecordName`, `___createdBy` | `creatorUserRecordName` |
/// | `modifiedUserRecordName`, `___modifiedBy` | `lastModifiedUserRecordName` |
///
/// A filter on the creator compares user record names (a `REFERENCE` to the user, or its
/// name): records saved before the server named their authors have none, and match no user.
///
/// ```swift
/// let field = try RequestBodyDecoder.decode(FieldReference.self, from: ["systemFieldName": "createdTimestamp"], at: "query.sortBy[0]")
/// field.sortKey   // "creationDate"
/// ```
enum FieldReference: Equatable, Decodable {
    /// The field names that stand for every searchable field in the full-text comparators.
    static let allTokensFieldNames: Set<String> = ["allTokens", "___all", "self"]

    case field(String)
    case recordName
    case creationDate
    case modificationDate
    /// The user whose save created the record.
    case creator
    /// The user whose save last changed the record.
    case lastModifier
    case allTokens

    private enum CodingKeys: String, CodingKey {
        case systemFieldName, fieldName
    }

    /// The field a filter or sort object names (decoded from the filter's or sort's own object).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let place = decoder.codingPath.jsonPath
        if let name = try container.decodeIfPresent(String.self, forKey: .systemFieldName) {
            self = try Self.system(name, place: place)
        } else if let name = try container.decodeIfPresent(String.self, forKey: .fieldName) {
            if name.hasPrefix("___") {
                self = try Self.system(name, place: place)
            } else if Self.allTokensFieldNames.contains(name) {
                self = .allTokens
            } else {
                guard Self.isIdentifier(name) else {
                    throw ServerError(.badRequest, "\(place): '\(name.prefix(80))' is not a field name (letters, digits and underscores, starting with a letter)")
                }
                self = .field(name)
            }
        } else {
            throw container.missing(.fieldName, expected: "a string, or a systemFieldName instead")
        }
    }

    private static func system(_ name: String, place: String) throws(ServerError) -> FieldReference {
        switch name {
        case "recordName", "___recordID": return .recordName
        case "createdTimestamp", "___createTime": return .creationDate
        case "modifiedTimestamp", "___modTime": return .modificationDate
        case "createdUserRecordName", "___createdBy": return .creator
        case "modifiedUserRecordName", "___modifiedBy": return .lastModifier
        default:
            throw ServerError(.badRequest, "\(place): unknown system field '\(name.prefix(80))' (recordName, createdTimestamp, modifiedTimestamp, createdUserRecordName, modifiedUserRecordName)")
        }
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.utf8.count <= 255 && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// The predicate text that reads this field; `bind` appends a value and returns its placeholder.
    func expression(bind: (Value) -> String) -> String {
        switch self {
        case .field(let name):
            // %K binds the name as a key path: a field named like a keyword (AND, SELF) stays a field.
            _ = bind(.string(name))
            return "%K"
        case .recordName: return "recordName"
        case .creationDate: return "creationDate"
        case .modificationDate: return "modificationDate"
        case .creator: return "creatorUserRecordName"
        case .lastModifier: return "lastModifiedUserRecordName"
        case .allTokens: return "self"
        }
    }

    /// The key to sort by, or nil when the field orders nothing (every searchable field at once).
    var sortKey: String? {
        switch self {
        case .field(let name): name
        case .recordName: "recordName"
        case .creationDate: "creationDate"
        case .modificationDate: "modificationDate"
        case .creator: "creatorUserRecordName"
        case .lastModifier: "lastModifiedUserRecordName"
        case .allTokens: nil
        }
    }

    /// A filter's value (its `fieldValue`, at `path`), as this field takes it (a reference or
    /// string for the record name and the users).
    func value(_ value: Value, path: String) throws(ServerError) -> Value {
        if AssetWire.pending(value) != nil || value.listValue?.contains(where: { AssetWire.pending($0) != nil }) == true {
            throw ServerError(.badRequest, "\(path): a filter cannot compare assets (ASSETID); test the field for presence instead")
        }
        switch self {
        case .recordName, .creator, .lastModifier:
            if case .reference(let reference) = value { return .string(reference.recordName) }
            if case .list(let members) = value {
                return .list(members.map { member in
                    if case .reference(let reference) = member { return .string(reference.recordName) }
                    return member
                })
            }
            return value
        default:
            return value
        }
    }
}
#endif

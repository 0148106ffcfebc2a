// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// The record field an asset is for: what an upload URL and its receipt are bound to (the
/// record type, field and record name `assets/upload` was asked for, in its zone and
/// namespace), and the field a download URL serves from, which must still hold the asset.
///
/// ```swift
/// let field = AssetField(namespace: namespace, zoneName: "development/_defaultZone", recordType: "Note", recordName: "n1", fieldName: "attachment")
/// field.admits(record, fieldName: "attachment", namespace: namespace)   // true for Note n1 in that zone
/// ```
struct AssetField: Equatable, Sendable, CustomStringConvertible {
    let namespace: Namespace
    /// The zone's name in the store (with the namespace's prefix, ``Namespace/storedZone(_:)``).
    let zoneName: String
    let recordType: String
    /// The record's name; empty: any record (an upload for a new record the client lets the
    /// server name).
    let recordName: String
    let fieldName: String

    /// The field of a stored record.
    init(_ record: Record, fieldName: String, namespace: Namespace) {
        self.init(namespace: namespace, zoneName: record.recordID.zoneID.zoneName, recordType: record.recordType,
                  recordName: record.recordID.recordName, fieldName: fieldName)
    }

    init(namespace: Namespace, zoneName: String, recordType: String, recordName: String, fieldName: String) {
        self.namespace = namespace
        self.zoneName = zoneName
        self.recordType = recordType
        self.recordName = recordName
        self.fieldName = fieldName
    }

    /// The field in a signed token: environment, database, zone, record type, record name, field.
    var tokenFields: [String] {
        let database = switch namespace.database {
        case .public: "public"
        case .private(let user): "private:" + user
        case .shared(let user): "shared:" + user
        }
        return [namespace.environment.rawValue, database, zoneName, recordType, recordName, fieldName]
    }

    /// The field of a token's ``tokenFields``; nil when they are not its shape.
    init?(tokenFields fields: ArraySlice<String>) {
        guard fields.count == 6, let environment = Namespace.Environment(rawValue: fields[fields.startIndex]) else { return nil }
        let values = Array(fields)
        let database: Namespace.Database
        if values[1] == "public" {
            database = .public
        } else if values[1].hasPrefix("private:") {
            database = .private(user: String(values[1].dropFirst("private:".count)))
        } else {
            return nil
        }
        self.init(namespace: Namespace(environment: environment, database: database), zoneName: values[2], recordType: values[3],
                  recordName: values[4], fieldName: values[5])
    }

    /// Whether a record's field, saved in a namespace, is this one.
    func admits(_ record: Record, fieldName: String, namespace: Namespace) -> Bool {
        namespace == self.namespace && record.recordID.zoneID.zoneName == zoneName && record.recordType == recordType
            && fieldName == self.fieldName && (recordName.isEmpty || record.recordID.recordName == recordName)
    }

    /// Whether a record holds an asset in this field (as its value, or in its list).
    func holds(_ asset: Asset, in record: Record) -> Bool {
        guard record.recordType == recordType, let value = record.fields[fieldName] else { return false }
        if Asset(value) == asset { return true }
        if case .list(let members) = value { return members.contains { Asset($0) == asset } }
        return false
    }

    /// `Note.attachment of record 'n1'` (`of a new record` when unnamed).
    var description: String {
        "\(recordType).\(fieldName) of " + (recordName.isEmpty ? "a new record" : "record '\(recordName)'")
    }
}
#endif

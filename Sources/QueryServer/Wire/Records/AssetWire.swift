// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// `ASSETID` field values on the wire, and back.
///
/// Out, an asset (``Asset``, a reference into `$assets`) is CloudKit's asset dictionary:
/// `{"fileChecksum": base64 SHA-256, "size": bytes, "receipt": ..., "downloadURL": ...}`
/// (`receipt` and `downloadURL` when the answer has ``AssetLinks``, both bound to the record's
/// field, ``AssetField``); a list of assets is an `ASSETID_LIST`.
///
/// In, a `records/modify` field value `{"type": "ASSETID", "value": {"fileChecksum", "size",
/// "receipt"}}` (what the upload answered, or what a fetched record carries) is read into a
/// *pending* value: a reference into ``receiptZone`` that carries the three members, which
/// ``CloudKitService`` resolves before it saves (the receipt's signature and expiry, the field it
/// was made for, its checksum and size against the ones given, and the bytes stored), since
/// reading a field value knows no store.
///
/// ```swift
/// AssetWire.json(asset.value, named: "attachment", of: record, style: style)   // {"value": {"fileChecksum": …, "downloadURL": …}, "type": "ASSETID"}
/// ```
enum AssetWire {
    /// The zone of the pending values that `ASSETID` input reads into; none is ever saved.
    static let receiptZone = "$asset-receipts"

    // MARK: From the wire

    /// The pending value of an asset dictionary at `path` (``AssetDictionary``).
    static func pendingValue(_ raw: JSONValue, path: String) throws(ServerError) -> Value {
        let asset = try RequestBodyDecoder.decode(AssetDictionary.self, from: raw, at: path)
        let size = asset.size.map(String.init) ?? ""
        return .reference(Reference(recordName: "\(size)|\(asset.fileChecksum)|\(asset.receipt)", zoneName: receiptZone))
    }

    /// What a pending value holds: the size and checksum given (nil: not given) and the receipt;
    /// nil for any other value.
    static func pending(_ value: Value) -> (size: Int64?, fileChecksum: String?, receipt: String)? {
        guard case .reference(let reference) = value, reference.zoneName == receiptZone else { return nil }
        let parts = reference.recordName.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return (Int64(parts[0]), parts[1].isEmpty ? nil : String(parts[1]), String(parts[2]))
    }

    /// Whether a reference a client sent points into a zone reserved for assets (refused: a
    /// client names assets through `ASSETID` values and their receipts only).
    static func isReserved(zoneName: String) -> Bool {
        zoneName == Asset.zoneName || zoneName == receiptZone
    }

    // MARK: To the wire

    /// The field value dictionary of an asset or a non-empty list of assets, the value of
    /// `record`'s field `fieldName`; nil for any other value. Its `receipt` and `downloadURL`
    /// are bound to that field (``AssetField``), and given when `style` has links and a namespace.
    static func json(_ value: Value, named fieldName: String, of record: Record, style: RecordAnswerStyle) -> JSONValue? {
        let field = style.namespace.map { AssetField(record, fieldName: fieldName, namespace: $0) }
        let links = field == nil ? nil : style.assetLinks
        if let asset = Asset(value) { return .object(["value": dictionary(asset, field: field, links: links), "type": .string("ASSETID")]) }
        guard case .list(let members) = value, !members.isEmpty else { return nil }
        var dictionaries: [JSONValue] = []
        for member in members {
            guard let asset = Asset(member) else { return nil }
            dictionaries.append(dictionary(asset, field: field, links: links))
        }
        return .object(["value": .array(dictionaries), "type": .string("ASSETID_LIST")])
    }

    /// CloudKit's asset dictionary; with links, the receipt and download URL of the field.
    static func dictionary(_ asset: Asset, field: AssetField?, links: AssetLinks?) -> JSONValue {
        var members: [String: JSONValue] = ["fileChecksum": .string(asset.fileChecksum), "size": .integer(asset.size)]
        if let links, let field {
            members["receipt"] = .string(links.tokens.receipt(asset, for: field))
            members["downloadURL"] = .string(links.downloadURL(asset, in: field))
        }
        return .object(members)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `assets/upload`: `zoneID`, and `tokens` (at most 200 of
/// `{recordType, fieldName, recordName, size}`), one for each asset field to upload a file for.
/// `size` is this server's extension: the file's size in bytes, which its upload must then have.
///
/// ```swift
/// let request = try AssetsUploadRequest(body: ["tokens": [["recordType": "Note", "fieldName": "attachment", "recordName": "n1"]]])
/// request.tokens[0].fieldName   // "attachment"
/// ```
struct AssetsUploadRequest: RequestDecodable {
    /// One asset field.
    struct Token: RequestDecodable {
        let recordType: String
        let fieldName: String
        /// The record the file is for (CloudKit lets a new record go unnamed; so does this server).
        let recordName: String
        /// The file's size in bytes, when the client tells it.
        let size: Int64?

        init(_ object: RequestObject) throws(ServerError) {
            recordType = try object.requiredString("recordType")
            fieldName = try object.requiredString("fieldName")
            recordName = try object.string("recordName") ?? ""
            size = try object.integer("size", "the file's size in bytes (an integer)")
            if let size, size < 0 { throw ServerError(.badRequest, "\(object.path("size")) is negative") }
            guard !recordType.isEmpty else { throw ServerError(.badRequest, "\(object.path("recordType")) is empty") }
            guard !fieldName.isEmpty else { throw ServerError(.badRequest, "\(object.path("fieldName")) is empty") }
        }
    }

    let zoneID: ZoneIDRequest?
    let tokens: [Token]

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        tokens = try object.decodeRequiredArray("tokens", maximumCount: RequestLimits.maximumBatch)
    }
}
#endif

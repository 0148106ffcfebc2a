// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `assets/upload`: `zoneID`, and `tokens` (at most 200 of
/// `{recordType, fieldName, recordName, size}`), one for each asset field to upload a file for.
/// `size` is this server's extension: the file's size in bytes, which its upload must then have.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(AssetsUploadRequest.self, from: ["tokens": [["recordType": "Note", "fieldName": "attachment", "recordName": "n1"]]])
/// request.tokens[0].fieldName   // "attachment"
/// ```
struct AssetsUploadRequest: Decodable {
    /// One asset field.
    struct Token: Decodable {
        let recordType: String
        let fieldName: String
        /// The record the file is for (CloudKit lets a new record go unnamed; so does this server).
        let recordName: String
        /// The file's size in bytes, when the client tells it.
        let size: Int64?

        private enum CodingKeys: String, CodingKey {
            case recordType, fieldName, recordName, size
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            recordType = try container.decode(String.self, forKey: .recordType)
            fieldName = try container.decode(String.self, forKey: .fieldName)
            recordName = try container.decodeIfPresent(String.self, forKey: .recordName) ?? ""
            size = try container.decodeIfPresent(Int64.self, forKey: .size, expected: "the file's size in bytes (an integer)")
            if let size, size < 0 { throw ServerError(.badRequest, "\(container.path(.size)) is negative") }
            guard !recordType.isEmpty else { throw ServerError(.badRequest, "\(container.path(.recordType)) is empty") }
            guard !fieldName.isEmpty else { throw ServerError(.badRequest, "\(container.path(.fieldName)) is empty") }
        }
    }

    let zoneID: ZoneIDRequest?
    let tokens: [Token]

    private enum CodingKeys: String, CodingKey {
        case zoneID, tokens
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        tokens = try container.decodeBatch([Token].self, forKey: .tokens, maximumCount: RequestLimits.maximumBatch)
    }
}
#endif

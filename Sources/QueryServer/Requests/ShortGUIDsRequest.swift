// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `records/resolve` and `records/accept`: `shortGUIDs`, at most 200 of
/// `{value, shouldFetchRootRecord, rootRecordDesiredKeys}` (a bare string is read as its value,
/// as CloudKit JS's `acceptShares` takes strings).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(ShortGUIDsRequest.self, from: ["shortGUIDs": [["value": "q3Xv0aE9JbKQ8m1k2F7s4w", "shouldFetchRootRecord": true]]])
/// request.entries[0].shouldFetchRootRecord   // true
/// ```
struct ShortGUIDsRequest: Decodable {
    /// One short GUID and what to answer with it.
    struct Entry: Decodable {
        /// The share's short GUID.
        let value: String
        /// Whether the answer carries the root record (`rootRecord`).
        let shouldFetchRootRecord: Bool
        /// The root record's fields to answer (nil: all).
        let rootRecordDesiredKeys: [String]?

        private enum CodingKeys: String, CodingKey {
            case value, shouldFetchRootRecord, rootRecordDesiredKeys
        }

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                value = text
                shouldFetchRootRecord = false
                rootRecordDesiredKeys = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try container.decode(String.self, forKey: .value, expected: "a share's short GUID")
            shouldFetchRootRecord = try container.decodeIfPresent(Bool.self, forKey: .shouldFetchRootRecord) ?? false
            rootRecordDesiredKeys = try container.decodeIfPresent([String].self, forKey: .rootRecordDesiredKeys)
        }
    }

    let entries: [Entry]

    private enum CodingKeys: String, CodingKey {
        case shortGUIDs
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entries = try container.decodeBatch([Entry].self, forKey: .shortGUIDs, maximumCount: RequestLimits.maximumBatch)
    }
}
#endif

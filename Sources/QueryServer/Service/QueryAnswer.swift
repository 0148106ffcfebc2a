// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The answer of `records/query` before it is JSON: the batch, and how its records are written.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `QueryBatch`, `QueryPage`,
/// `QueryOperation` and `ModifyOperation`.
struct QueryAnswer {
    var batch: QueryBatch
    let zoneName: String
    let desiredKeys: Set<String>?
    let numbersAsStrings: Bool
    /// The owner and asset links its records are written with.
    var style = RecordAnswerStyle.plain

    /// `{"records": [...], "continuationMarker": "..."}` written straight into bytes, each record
    /// as ``WireRecord/write(_:zoneName:desiredKeys:numbersAsStrings:into:)`` writes it.
    func jsonBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512 * max(1, batch.records.count))
        bytes.append(contentsOf: #"{"records":["#.utf8)
        for (index, record) in batch.records.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            WireRecord.write(record, zoneName: zoneName, desiredKeys: desiredKeys, numbersAsStrings: numbersAsStrings, style: style, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        if let cursor = batch.cursor {
            bytes.append(contentsOf: #","continuationMarker":"#.utf8)
            JSONWriter.writeString(cursor.stringValue, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
#endif

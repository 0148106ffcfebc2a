// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The answer of `records/modify` and `records/lookup` before it is JSON: one entry per
/// operation or record asked, in order. A record stays a `Record` until the answer is written,
/// straight into bytes as `records/query` writes its batch (``QueryAnswer``), rather than
/// becoming a ``JSONValue`` tree that is then written again.
///
/// ```swift
/// let answer = RecordsAnswer(zoneName: "Notes", numbersAsStrings: false, style: .plain,
///                            entries: [.record(saved, desiredKeys: nil), .json(errorEntry)])
/// JSONResponse.make(bytes: answer.jsonBytes())   // {"records":[{...},{...}]}
/// ```
struct RecordsAnswer {
    /// What an operation or a record asked answers.
    enum Entry {
        /// A record, with only `desiredKeys` among its fields when given.
        case record(Record, desiredKeys: Set<String>?)
        /// Anything else: a deleted record, an error entry, a share.
        case json(JSONValue)

        /// Writes the entry into bytes, a record as
        /// ``WireRecord/write(_:zoneName:desiredKeys:numbersAsStrings:style:into:)`` writes it.
        func write(zoneName: String, numbersAsStrings: Bool, style: RecordAnswerStyle, into bytes: inout [UInt8]) {
            switch self {
            case .record(let record, let desiredKeys):
                WireRecord.write(record, zoneName: zoneName, desiredKeys: desiredKeys, numbersAsStrings: numbersAsStrings, style: style, into: &bytes)
            case .json(let value):
                value.write(into: &bytes)
            }
        }

        /// The entry as JSON, for an answer that holds it among other members (a shared zone's
        /// changes).
        func json(zoneName: String, numbersAsStrings: Bool, style: RecordAnswerStyle) -> JSONValue {
            switch self {
            case .record(let record, let desiredKeys):
                WireRecord.json(record, zoneName: zoneName, desiredKeys: desiredKeys, numbersAsStrings: numbersAsStrings, style: style)
            case .json(let value):
                value
            }
        }
    }

    let zoneName: String
    let numbersAsStrings: Bool
    /// The owner, asset links and shares its records are written with.
    let style: RecordAnswerStyle
    let entries: [Entry]

    /// `{"records": [...]}` written straight into bytes, each record as
    /// ``WireRecord/write(_:zoneName:desiredKeys:numbersAsStrings:style:into:)`` writes it.
    func jsonBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512 * max(1, entries.count))
        bytes.append(contentsOf: #"{"records":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            entry.write(zoneName: zoneName, numbersAsStrings: numbersAsStrings, style: style, into: &bytes)
        }
        bytes.append(contentsOf: "]}".utf8)
        return bytes
    }

    /// The answer as a ``JSONValue`` (what the library's ``CloudKitService/modify(_:in:)`` and
    /// ``CloudKitService/lookup(_:in:)`` return):
    /// the bytes read back, so that the shape is spelled once.
    func jsonValue() throws(ServerError) -> JSONValue {
        try JSONResponse.value(readingBack: jsonBytes())
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The answer of `records/modify` before it is JSON: one entry per operation, in order. A saved
/// record stays a `Record` until the answer is written, straight into bytes as `records/query`
/// writes its batch (``QueryAnswer``), rather than becoming a ``JSONValue`` tree that is then
/// written again.
///
/// ```swift
/// let answer = ModifyAnswer(zoneName: "Notes", numbersAsStrings: false, style: .plain,
///                           entries: [.record(saved, desiredKeys: nil), .json(errorEntry)])
/// JSONResponse.make(bytes: answer.jsonBytes())   // {"records":[{...},{...}]}
/// ```
struct ModifyAnswer {
    /// What an operation answers.
    enum Entry {
        /// A saved record, with only `desiredKeys` among its fields when given.
        case record(Record, desiredKeys: Set<String>?)
        /// Anything else: a deleted record, an error entry, a share's answer.
        case json(JSONValue)
    }

    let zoneName: String
    let numbersAsStrings: Bool
    /// The owner, asset links and shares its records are written with.
    let style: RecordAnswerStyle
    let entries: [Entry]

    /// `{"records": [...]}` written straight into bytes, each saved record as
    /// ``WireRecord/write(_:zoneName:desiredKeys:numbersAsStrings:style:into:)`` writes it.
    func jsonBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512 * max(1, entries.count))
        bytes.append(contentsOf: #"{"records":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch entry {
            case .record(let record, let desiredKeys):
                WireRecord.write(record, zoneName: zoneName, desiredKeys: desiredKeys, numbersAsStrings: numbersAsStrings, style: style, into: &bytes)
            case .json(let value):
                value.write(into: &bytes)
            }
        }
        bytes.append(contentsOf: "]}".utf8)
        return bytes
    }

    /// The answer as a ``JSONValue`` (what the library's ``CloudKitService/modify(_:in:)`` returns):
    /// the bytes read back, so that the shape is spelled once.
    func jsonValue() throws(ServerError) -> JSONValue {
        do {
            return try JSONValue(parsing: jsonBytes())
        } catch {
            throw ServerError(.internalError, "the answer could not be read back: \(error)")
        }
    }
}
#endif

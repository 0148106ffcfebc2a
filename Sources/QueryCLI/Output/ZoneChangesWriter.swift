import PredicateLanguage
import RecordStore

/// Writes a zone's changes (``ZoneChanges``) in a ``ChangesOutputFormat``, page by page as
/// `changes` reads them, so that memory holds one page of records however many changed.
///
/// ```swift
/// var writer = ZoneChangesWriter(format: .jsonl, output: .standardOutput(), keys: nil, columns: [], moreComing: false)
/// writer.write(page)
/// writer.finish(token: page.token, moreComing: page.moreComing)
/// ```
struct ZoneChangesWriter {
    let format: ChangesOutputFormat
    let output: BufferedOutput
    let keys: [String]?
    private var table: TableRecordWriter?
    /// The table's deletions, listed after its records.
    private var deletions: [DeletedRecord] = []
    /// Records written to a JSON document so far (for its commas).
    private var documentCount = 0

    /// A writer; `columns` are a table's field columns, and `moreComing` is what a JSON document
    /// says (its keys are sorted, so it comes before the records).
    init(format: ChangesOutputFormat, output: BufferedOutput, keys: [String]?, columns: [String], moreComing: Bool) {
        self.format = format
        self.output = output
        self.keys = keys
        switch format {
        case .table: table = TableRecordWriter(output: output, columns: columns, showsRecordType: true)
        case .json: output.write("{\"moreComing\":\(moreComing),\"records\":[")
        case .jsonl: break
        }
    }

    /// The JSON object of a deleted record: DESIGN's record shape with `"deleted": true` and no fields.
    static func object(_ deleted: DeletedRecord) -> Value {
        .object([
            "deleted": .bool(true),
            "recordName": .string(deleted.recordID.recordName),
            "recordType": .string(deleted.recordType),
            "zone": .string(deleted.recordID.zoneID.zoneName),
        ])
    }

    /// Writes a page: its saved records, then its deleted ones.
    mutating func write(_ changes: ZoneChanges) {
        switch format {
        case .table:
            table?.write(changes.changedRecords)
            deletions += changes.deletedRecords
        case .json:
            let objects = changes.changedRecords.map { RecordJSON.object($0, keys: keys) } + changes.deletedRecords.map(Self.object)
            for object in objects {
                if documentCount > 0 { output.write(",") }
                output.write(object.jsonText(sortedKeys: true))
                documentCount += 1
            }
        case .jsonl:
            for record in changes.changedRecords { output.writeLine(RecordJSON.object(record, keys: keys).jsonText(sortedKeys: true)) }
            for deleted in changes.deletedRecords { output.writeLine(Self.object(deleted).jsonText(sortedKeys: true)) }
        }
    }

    /// Ends the output with the token to continue from and whether more changes wait.
    mutating func finish(token: ChangeToken, moreComing: Bool) {
        switch format {
        case .table:
            table?.finish(cursor: nil)
            for deleted in deletions { output.writeLine("deleted: \(deleted.recordType) \(deleted.recordID.recordName)") }
            output.writeLine("token: \(token.stringValue)")
            output.writeLine("moreComing: \(moreComing)")
        case .json:
            output.writeLine("],\"token\":\(Value.string(token.stringValue).jsonText(sortedKeys: true))}")
        case .jsonl:
            output.writeLine(Value.object(["moreComing": .bool(moreComing), "token": .string(token.stringValue)]).jsonText(sortedKeys: true))
        }
        output.flush()
    }
}

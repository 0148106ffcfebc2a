import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// Writes records in one output format, batch by batch as they are read, so that `find` and
/// `export` hold one batch in memory however many records match.
///
/// ```swift
/// var writer = RecordOutputFormat.jsonl.writer(to: .standardOutput(), keys: nil, fieldOrder: [], streams: true)
/// writer.write(batch)
/// writer.finish(cursor: nil)
/// ```
protocol RecordWriter {
    /// Writes the next records.
    mutating func write(_ records: [Record])
    /// Ends the output; `cursor` (more results remain) is written where the format keeps it.
    mutating func finish(cursor: String?)
}

/// How `find` and `export` print records.
enum RecordOutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned columns, sized from the first batch, then `(N records)`.
    case table
    /// One document: `{"cursor": …, "records": [...]}`.
    case json
    /// One record object a line, then `{"cursor": …}` when more results remain.
    case jsonl
    /// A header line (`recordName` and the fields), then a line a record.
    case csv

    /// A writer of this format.
    ///
    /// - Parameters:
    ///   - keys: the fields to print (`--keys`), nil for all.
    ///   - fieldOrder: the columns of a table or CSV without `keys`: the schema's fields in order.
    ///   - streams: whether the command reads to the end (no cursor), so a JSON document can
    ///     write its records as they come.
    ///   - showsRecordType: whether a table has a `recordType` column (a query on a type with
    ///     subtypes gives records of several types).
    func writer(to output: BufferedOutput, keys: [String]?, fieldOrder: [String], streams: Bool, showsRecordType: Bool = false) -> any RecordWriter {
        switch self {
        case .table: TableRecordWriter(output: output, columns: keys ?? fieldOrder, showsRecordType: showsRecordType)
        case .json: JSONDocumentRecordWriter(output: output, keys: keys, streams: streams)
        case .jsonl: JSONLinesRecordWriter(output: output, keys: keys)
        case .csv: CSVRecordWriter(output: output, columns: keys ?? fieldOrder)
        }
    }
}

/// A record as DESIGN's JSON object: recordName, recordType, zone, fields. `import` reads
/// this shape back (``RecordImporter`` takes the name, zone and fields from it). Its fields are
/// written in PredicateLanguage's JSON mapping (`{"$date": ...}`), unlike the server's
/// `WireRecord`, which writes CloudKit's record shape with `{value, type}` field values.
enum RecordJSON {
    /// The object of a record, with only `keys` among its fields when given.
    static func object(_ record: Record, keys: [String]?) -> Value {
        var fields = record.fields
        if let keys { fields = fields.filter { keys.contains($0.key) } }
        return .object([
            "recordName": .string(record.recordID.recordName),
            "recordType": .string(record.recordType),
            "zone": .string(record.recordID.zoneID.zoneName),
            "fields": .object(fields),
        ])
    }
}

/// `--output jsonl`: a record a line, and `{"cursor": "…"}` last when more results remain.
struct JSONLinesRecordWriter: RecordWriter {
    let output: BufferedOutput
    let keys: [String]?

    mutating func write(_ records: [Record]) {
        for record in records { output.writeLine(RecordJSON.object(record, keys: keys).jsonText(sortedKeys: true)) }
    }

    mutating func finish(cursor: String?) {
        if let cursor { output.writeLine(Value.object(["cursor": .string(cursor)]).jsonText(sortedKeys: true)) }
        output.flush()
    }
}

/// `--output json`: `{"cursor":…,"records":[…]}` with sorted keys. The cursor comes first, so
/// a writer that `streams` (the command reads to the end: no cursor) writes `null` at once and
/// each record as it comes; otherwise records wait (at most `--limit` of them) for the cursor.
struct JSONDocumentRecordWriter: RecordWriter {
    let output: BufferedOutput
    let keys: [String]?
    let streams: Bool
    private var waiting: [String] = []
    private var recordCount = 0

    init(output: BufferedOutput, keys: [String]?, streams: Bool) {
        self.output = output
        self.keys = keys
        self.streams = streams
        if streams { output.write("{\"cursor\":null,\"records\":[") }
    }

    mutating func write(_ records: [Record]) {
        for record in records {
            let text = RecordJSON.object(record, keys: keys).jsonText(sortedKeys: true)
            if streams {
                if recordCount > 0 { output.write(",") }
                output.write(text)
            } else {
                waiting.append(text)
            }
            recordCount += 1
        }
    }

    mutating func finish(cursor: String?) {
        if !streams {
            let cursorText = cursor.map { Value.string($0).jsonText(sortedKeys: true) } ?? "null"
            output.write("{\"cursor\":\(cursorText),\"records\":[")
            output.write(waiting.joined(separator: ","))
            waiting = []
        }
        output.writeLine("]}")
        output.flush()
    }
}

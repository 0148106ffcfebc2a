import Foundation
import PredicateLanguage
import RecordStore

/// `--output csv`: a header (`recordName` and the fields), then a line a record (RFC 4180).
/// Numbers and booleans are bare cells; text is quoted (a quoted cell is text to `import`, as
/// with Python's `QUOTE_NONNUMERIC`); dates, locations, references, bytes and lists are their
/// typed JSON, quoted (`{"$date":"2024-05-01T12:00:00Z"}`, `[1,2]`), which `import` reads back
/// as those types: an export imports again as it was, into a new store too.
///
/// ```
/// "recordName","name","population","location"
/// "2988507","Paris",2138551,"{""$location"":[48.85341,2.3488]}"
/// ```
struct CSVRecordWriter: RecordWriter {
    let output: BufferedOutput
    let columns: [String]
    private var headerWritten = false

    init(output: BufferedOutput, columns: [String]) {
        self.output = output
        self.columns = columns
    }

    mutating func write(_ records: [Record]) {
        writeHeaderOnce()
        for record in records {
            var line = Self.quoted(record.recordID.recordName)
            for column in columns {
                line += ","
                line += Self.cell(record.fields[column])
            }
            output.writeLine(line)
        }
    }

    mutating func finish(cursor: String?) {
        writeHeaderOnce()
        output.flush()
        if let cursor { CommandOutput.standardError("cursor: \(cursor)") }
    }

    private mutating func writeHeaderOnce() {
        guard !headerWritten else { return }
        headerWritten = true
        output.writeLine((["recordName"] + columns).map(Self.quoted).joined(separator: ","))
    }

    /// A value's cell: numbers and booleans bare, text and typed JSON quoted (a quoted cell is
    /// text to `import`, so `"007"` and `"12"` stay strings); a missing or null value is empty.
    static func cell(_ value: Value?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let string)?: quoted(string)
        case .bool(let flag)?: flag ? "true" : "false"
        case .int, .double: value?.jsonText(sortedKeys: true) ?? ""
        case let value?: quoted(value.jsonText(sortedKeys: true))
        }
    }

    /// A cell in double quotes, its quotes doubled.
    static func quoted(_ cell: String) -> String {
        "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

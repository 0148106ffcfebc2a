import Foundation
import PredicateLanguage
import RecordStore

/// `--output table`: aligned columns, `recordName` first (then `recordType` when the records
/// may be of several types, as `changes` prints them). The widths come from the header and
/// the first batch, so the table streams: a later cell wider than its column is shortened
/// with `…`. Ends with `(N records)`; a cursor goes to standard error as `cursor: TOKEN`.
///
/// ```
/// recordName  name       population
/// ----------  ---------  ----------
/// 2988507     Paris      2138551
/// (1 record)
/// ```
struct TableRecordWriter: RecordWriter {
    let output: BufferedOutput
    let columns: [String]
    /// Whether a `recordType` column follows `recordName`.
    let showsRecordType: Bool
    private var widths: [Int]?
    private var recordCount = 0

    init(output: BufferedOutput, columns: [String], showsRecordType: Bool = false) {
        self.output = output
        self.columns = columns
        self.showsRecordType = showsRecordType
    }

    mutating func write(_ records: [Record]) {
        let rows = records.map { record in
            [record.recordID.recordName] + (showsRecordType ? [record.recordType] : []) + columns.map { Self.cell(record.fields[$0]) }
        }
        recordCount += records.count
        let widths = self.widths ?? startTable(sizedBy: rows)
        for row in rows { writeRow(row, widths: widths) }
    }

    mutating func finish(cursor: String?) {
        if widths == nil { _ = startTable(sizedBy: []) }
        output.writeLine("(\(recordCount) record\(recordCount == 1 ? "" : "s"))")
        output.flush()
        if let cursor { CommandOutput.standardError("cursor: \(cursor)") }
    }

    /// Sizes the columns from the header and `rows`, and writes the header and its rule.
    private mutating func startTable(sizedBy rows: [[String]]) -> [Int] {
        let header = ["recordName"] + (showsRecordType ? ["recordType"] : []) + columns
        let widths = header.indices.map { column in rows.reduce(header[column].count) { max($0, $1[column].count) } }
        self.widths = widths
        writeRow(header, widths: widths)
        output.writeLine(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        return widths
    }

    private func writeRow(_ row: [String], widths: [Int]) {
        var line = ""
        for (index, (text, width)) in zip(row, widths).enumerated() {
            if index > 0 { line += "  " }
            let count = text.count
            if count > width {
                line += text.prefix(max(0, width - 1)) + "…"
            } else {
                line += text
                if index < row.count - 1 { line += String(repeating: " ", count: width - count) }
            }
        }
        while line.last == " " { line.removeLast() }
        output.writeLine(line)
    }

    /// A value in a table cell, shortened to 40 characters.
    static func cell(_ value: Value?) -> String {
        guard let value else { return "" }
        let text: String
        switch value {
        case .string(let string): text = string
        case .location(let location): text = "\(location.latitude),\(location.longitude)"
        case .list(let members): text = "[\(members.count) items]"
        default: text = value.jsonText(sortedKeys: true)
        }
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 40 ? String(flat.prefix(39)) + "…" : flat
    }
}

import Foundation
import PredicateLanguage
import RecordStore

/// How `find` prints records.
enum RecordOutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json, jsonl
}

import ArgumentParser

/// Prints records as a table, a JSON document or JSON lines.
enum RecordPrinting {
    /// A record as DESIGN's JSON object: recordName, recordType, zone, fields.
    static func jsonObject(_ record: Record, keys: [String]?) -> Value {
        var fields = record.fields
        if let keys { fields = fields.filter { keys.contains($0.key) } }
        return .object([
            "recordName": .string(record.recordID.recordName),
            "recordType": .string(record.recordType),
            "zone": .string(record.recordID.zoneID.zoneName),
            "fields": .object(fields),
        ])
    }

    /// Prints records; a cursor (more results remain) goes to the JSON `cursor` field, a last
    /// JSON line `{"cursor": …}`, or standard error as `cursor: TOKEN` in table mode.
    static func print(_ records: [Record], format: RecordOutputFormat, keys: [String]?, fieldOrder: [String], cursor: String? = nil) {
        switch format {
        case .json:
            let document = Value.object(["records": .list(records.map { jsonObject($0, keys: keys) }), "cursor": cursor.map(Value.string) ?? .null])
            Swift.print(document.jsonText(sortedKeys: true))
        case .jsonl:
            for record in records { Swift.print(jsonObject(record, keys: keys).jsonText(sortedKeys: true)) }
            if let cursor { Swift.print(Value.object(["cursor": .string(cursor)]).jsonText(sortedKeys: true)) }
        case .table:
            let columns = keys ?? fieldOrder
            var rows = [["recordName"] + columns]
            for record in records {
                rows.append([record.recordID.recordName] + columns.map { cell(record.fields[$0]) })
            }
            let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for (index, row) in rows.enumerated() {
                Swift.print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces))
                if index == 0 { Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
            }
            Swift.print("(\(records.count) record\(records.count == 1 ? "" : "s"))")
            if let cursor { FileHandle.standardError.write(Data("cursor: \(cursor)\n".utf8)) }
        }
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

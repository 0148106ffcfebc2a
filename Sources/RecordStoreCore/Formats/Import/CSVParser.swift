/// Splits CSV rows (RFC 4180: commas, double-quoted cells with `""` escapes, quoted line breaks).
package struct CSVParser {
    /// A cell's text, and whether it was quoted (a quoted cell is text, never a number, as
    /// Python's `QUOTE_NONNUMERIC` writes and `query export` does).
    package struct Cell: Equatable {
        package var text: String
        package var quoted: Bool
    }

    /// The cells of one record, reading more lines when a quoted cell spans lines.
    /// Throws a message for an unterminated quote.
    package static func cells(firstLine: [UInt8], moreLines: () -> [UInt8]?) throws(CSVError) -> [Cell] {
        var cells: [Cell] = []
        var cell: [UInt8] = []
        var quoted = false
        var line = firstLine
        var index = 0
        var inQuotes = false
        while true {
            if index >= line.count {
                if inQuotes {
                    guard let next = moreLines() else { throw CSVError(message: "a quoted cell is not closed") }
                    cell.append(0x0A)
                    line = next
                    index = 0
                    continue
                }
                cells.append(Cell(text: String(decoding: cell, as: UTF8.self), quoted: quoted))
                return cells
            }
            let byte = line[index]
            if inQuotes {
                if byte == 0x22 {
                    if index + 1 < line.count, line[index + 1] == 0x22 {
                        cell.append(0x22)
                        index += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    cell.append(byte)
                }
            } else if byte == 0x22 && cell.isEmpty {
                inQuotes = true
                quoted = true
            } else if byte == 0x2C {
                cells.append(Cell(text: String(decoding: cell, as: UTF8.self), quoted: quoted))
                cell.removeAll(keepingCapacity: true)
                quoted = false
            } else {
                cell.append(byte)
            }
            index += 1
        }
    }
}

/// A CSV syntax problem.
package struct CSVError: Error {
    package var message: String
}

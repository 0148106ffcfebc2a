// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import NIOCore
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Rows for `COPY table (columns) FROM STDIN` in PostgreSQL's text format: one line per row,
/// values separated by tabs, `\N` for null, and backslash escapes for the characters the
/// format reserves. Each ``SQLValue`` is written as the column's input function reads it:
/// integers and reals in decimal (`Infinity`, `-Infinity`, `NaN` spelled as PostgreSQL
/// spells them), text escaped, bytes as `\x` hex.
///
/// ```swift
/// var rows = PostgresCopyRows()
/// rows.append([.integer(1), .text("Paris\tFrance"), .null])   // "1\tParis\\tFrance\t\\N\n"
/// ```
struct PostgresCopyRows {
    /// The encoded rows not yet sent.
    private(set) var buffer = ByteBuffer()
    /// How many rows the buffer holds.
    private(set) var count = 0

    /// Appends one row.
    mutating func append(_ values: [SQLValue]) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            write(value)
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
        count += 1
    }

    /// Empties the buffer (after it was sent), keeping its storage.
    mutating func removeAll() {
        buffer.clear()
        count = 0
    }

    private mutating func write(_ value: SQLValue) {
        switch value {
        case .null:
            buffer.writeStaticString("\\N")
        case .integer(let integer):
            buffer.writeString(String(integer))
        case .real(let real):
            if real.isNaN {
                buffer.writeStaticString("NaN")
            } else if real.isInfinite {
                buffer.writeStaticString(real < 0 ? "-Infinity" : "Infinity")
            } else {
                // Swift prints the shortest decimal that reads back as the same double.
                buffer.writeString(real.description)
            }
        case .text(let text):
            writeEscaped(text)
        case .blob(let data):
            // bytea's hex input, `\x...`, with its backslash escaped for the copy format.
            buffer.writeStaticString("\\\\x")
            let digits: [UInt8] = Array("0123456789abcdef".utf8)
            for byte in data {
                buffer.writeInteger(digits[Int(byte >> 4)])
                buffer.writeInteger(digits[Int(byte & 0x0F)])
            }
        }
    }

    /// Text with the copy format's reserved bytes escaped: backslash, tab, newline, carriage return.
    private mutating func writeEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}

extension PostgresSQLConnection {
    /// Writes rows into a table with `COPY ... FROM STDIN`: one statement for any number of rows,
    /// sent in pieces of about a megabyte. `table` and `columns` are the store's names (as
    /// ``PostgresDialect/quote(_:)`` takes them), the columns in the rows' order.
    func copy(into table: String, columns: [String], rows: [[SQLValue]]) async throws {
        guard !rows.isEmpty else { return }
        // PostgresNIO puts each name between double quotes as given: a quote inside is doubled here.
        func inner(_ name: String) -> String { PostgresLayout.identifier(name).replacingOccurrences(of: "\"", with: "\"\"") }
        // A span of its own in a traced operation, as every other statement (named COPY).
        try await StoreTracing.statement("COPY \(PostgresDialect.quote(table)) FROM STDIN", system: "postgresql") {
            try await connection.copyFrom(table: inner(table), columns: columns.map(inner), logger: logger) { writer in
                var encoded = PostgresCopyRows()
                for row in rows {
                    encoded.append(row)
                    if encoded.buffer.readableBytes >= 1 << 20 {
                        try await writer.write(encoded.buffer)
                        encoded.removeAll()
                    }
                }
                if encoded.count > 0 { try await writer.write(encoded.buffer) }
            }
        }
    }
}
#endif

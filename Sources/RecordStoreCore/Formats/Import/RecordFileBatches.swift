import Foundation
import PredicateLanguage

/// Reads a JSON, JSON Lines or CSV file (optionally gzipped) as batches of records, for
/// ``RecordImporter``: each call to ``next()`` reads on until a batch is full or the file ends.
/// Errors name the file and line.
///
/// ```swift
/// var batches = try RecordFileBatches(path: "cities.jsonl.gz", importer: importer)
/// while let batch = try batches.next() { try store.save(batch) }
/// ```
package struct RecordFileBatches {
    private let importer: RecordImporter
    private let reader: CompressedFileReader
    private let format: RecordImporter.Format
    private let file: String
    private var lineNumber = 0
    private var generated = 0
    /// The CSV header, once read.
    private var header: [String]?
    /// The objects of a JSON array file, read whole, and the next one's position.
    private var objects: [Value]?
    private var nextObject = 0

    package init(path: String, importer: RecordImporter) throws(RecordStoreError) {
        guard let format = RecordImporter.Format(path: path) else {
            throw RecordStoreError.malformedInput(file: path, line: 0, message: "unknown file type: use .json, .jsonl or .csv, optionally .gz")
        }
        self.importer = importer
        self.format = format
        reader = try CompressedFileReader(path: path)
        file = (path as NSString).lastPathComponent
    }

    /// Bytes of the file on disk read so far.
    package var bytesRead: Int64 { reader.bytesRead }

    /// The size of the file on disk, in bytes (0 when it cannot be read).
    package var fileSize: Int64 { reader.fileSize }

    /// The next batch of at most the importer's batch size; nil at the end of the file.
    package mutating func next() throws(RecordStoreError) -> [Record]? {
        var batch: [Record] = []
        let size = max(1, importer.batchSize)
        while batch.count < size, let (object, line) = try nextObjectAndLine() {
            guard case .object(let fields) = object else {
                throw RecordStoreError.malformedInput(file: file, line: line, message: "expected a JSON object, found \(object.typeName)")
            }
            generated += 1
            batch.append(try importer.record(from: fields, line: line, file: file, generatedNumber: generated))
        }
        return batch.isEmpty ? nil : batch
    }

    /// The next object of the file with the line it starts on.
    private mutating func nextObjectAndLine() throws(RecordStoreError) -> (Value, Int)? {
        switch format {
        case .jsonLines:
            while let line = reader.nextLine() {
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                do {
                    return (try Value(jsonBytes: line), lineNumber)
                } catch {
                    throw RecordStoreError.malformedInput(file: file, line: lineNumber, message: "bad JSON: \(error)")
                }
            }
            return nil
        case .json:
            if objects == nil { objects = try readArray() }
            guard let objects, nextObject < objects.count else { return nil }
            nextObject += 1
            return (objects[nextObject - 1], nextObject)
        case .csv:
            return try nextCSVRow()
        }
    }

    /// A JSON file's top-level array.
    private func readArray() throws(RecordStoreError) -> [Value] {
        let bytes = reader.readAll()
        let value: Value
        do {
            value = try Value(jsonBytes: bytes)
        } catch let error as JSONParsingError {
            let line = 1 + bytes.prefix(max(0, min(error.offset, bytes.count))).filter { $0 == 0x0A }.count
            throw RecordStoreError.malformedInput(file: file, line: line, message: "bad JSON: \(error.message)")
        } catch {
            throw RecordStoreError.malformedInput(file: file, line: 1, message: "bad JSON: \(error)")
        }
        guard case .list(let objects) = value else {
            throw RecordStoreError.malformedInput(file: file, line: 1, message: "expected a JSON array of objects")
        }
        return objects
    }

    /// The next CSV row as an object keyed by the header (empty unquoted cells left out).
    private mutating func nextCSVRow() throws(RecordStoreError) -> (Value, Int)? {
        let reader = self.reader
        var lineNumber = self.lineNumber
        defer { self.lineNumber = lineNumber }
        func nextLine() -> [UInt8]? {
            lineNumber += 1
            return reader.nextLine()
        }
        if header == nil {
            guard let headerLine = nextLine() else { return nil }
            do {
                header = try CSVParser.cells(firstLine: headerLine, moreLines: nextLine).map(\.text)
            } catch {
                throw RecordStoreError.malformedInput(file: file, line: lineNumber, message: error.message)
            }
        }
        let header = self.header ?? []
        while let line = nextLine() {
            let first = lineNumber
            if line.isEmpty { continue }
            let cells: [CSVParser.Cell]
            do {
                cells = try CSVParser.cells(firstLine: line, moreLines: nextLine)
            } catch {
                throw RecordStoreError.malformedInput(file: file, line: first, message: error.message)
            }
            guard cells.count == header.count else {
                throw RecordStoreError.malformedInput(file: file, line: first, message: "expected \(header.count) cells, found \(cells.count)")
            }
            var fields: [String: Value] = [:]
            var recordName: String?
            // An empty cell is a missing value; `""` (quoted) is the empty text.
            for (name, cell) in zip(header, cells) where !cell.text.isEmpty || cell.quoted {
                // An exported file's recordName column names the record (unless --id names another).
                if name == "recordName", importer.idField == nil {
                    recordName = cell.text
                    continue
                }
                fields[name] = RecordImporter.csvValue(cell, type: importer.fieldTypes[name])
            }
            if let recordName { return (.object(["recordName": .string(recordName), "fields": .object(fields)]), first) }
            return (.object(fields), first)
        }
        return nil
    }
}

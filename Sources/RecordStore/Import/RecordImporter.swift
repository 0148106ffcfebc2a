import Foundation
import PredicateLanguage

/// Imports records from JSON (an array of objects), JSON lines or CSV files, plain or
/// gzip-compressed, in batches of one transaction each.
///
/// A malformed line fails the import with its line number; the batch holding it is not
/// written, the batches before it are. A record whose name is already stored replaces it.
///
/// An import into a new record type, or into one with fewer records than the file holds, builds
/// the type's indexes once at the end rather than row by row (on SQLite; if the import stops
/// early, the indexes are built when it fails, or when the store next opens).
///
/// ```swift
/// var importer = RecordImporter(recordType: "City")
/// importer.idField = "geonameid"
/// importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
/// let summary = try importer.importFile(at: "cities15000.jsonl.gz", into: store)
/// print(summary.recordCount)   // 34006
/// ```
public struct RecordImporter: Sendable {
    /// A location field built from two numeric fields.
    public struct LocationMapping: Sendable, Hashable {
        /// The location field's name.
        public var name: String
        /// The field holding the latitude.
        public var latitudeField: String
        /// The field holding the longitude.
        public var longitudeField: String

        /// Creates a mapping.
        public init(name: String, latitudeField: String, longitudeField: String) {
            self.name = name
            self.latitudeField = latitudeField
            self.longitudeField = longitudeField
        }

        /// Parses `NAME=LATFIELD,LONFIELD`.
        ///
        /// ```swift
        /// RecordImporter.LocationMapping(parsing: "location=latitude,longitude")
        /// ```
        public init?(parsing text: String) {
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let fields = parts[1].split(separator: ",")
            guard fields.count == 2, !parts[0].isEmpty else { return nil }
            self.init(name: String(parts[0]), latitudeField: String(fields[0]), longitudeField: String(fields[1]))
        }
    }

    /// The file formats.
    public enum Format: String, Sendable {
        case json, jsonLines, csv

        /// The format a file name says (`.json`, `.jsonl`, `.ndjson`, `.csv`, each optionally `.gz`).
        public init?(path: String) {
            var name = path.lowercased()
            if name.hasSuffix(".gz") { name.removeLast(3) }
            if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") {
                self = .jsonLines
            } else if name.hasSuffix(".json") {
                self = .json
            } else if name.hasSuffix(".csv") {
                self = .csv
            } else {
                return nil
            }
        }
    }

    /// Progress, reported after each batch, once its transaction has committed.
    public struct Progress: Sendable {
        /// Records written so far (committed: they survive a crash of the process from here on).
        public var recordCount: Int
        /// The name of the last record of the batch just committed.
        public var lastRecordName: String?
        /// Bytes of the file read so far, and the file's size.
        public var bytesRead: Int64
        public var totalBytes: Int64
        /// Seconds since the import began.
        public var elapsed: TimeInterval
    }

    /// What an import did.
    public struct Summary: Sendable {
        /// Records written.
        public var recordCount: Int
        /// Seconds it took.
        public var elapsed: TimeInterval
    }

    /// The record type of the imported records.
    public var recordType: String
    /// The field whose value becomes the record name; nil to generate names.
    public var idField: String?
    /// Location fields to build.
    public var locations: [LocationMapping] = []
    /// Records per transaction.
    public var batchSize = 5_000
    /// The zone to import into.
    public var zone: ZoneID = .default

    /// Creates an importer for a record type.
    public init(recordType: String) {
        self.recordType = recordType
    }

    /// Imports a file; `progress` is called after each batch, once the batch is committed.
    public func importFile(
        at path: String, into store: Store, progress: (Progress) -> Void = { _ in }
    ) throws(RecordStoreError) -> Summary {
        guard let format = Format(path: path) else {
            throw RecordStoreError.malformedInput(file: path, line: 0, message: "unknown file type: use .json, .jsonl or .csv, optionally .gz")
        }
        let reader = try CompressedFileReader(path: path)
        let start = Date()
        var batch: [Record] = []
        var count = 0
        var generated = 0
        let file = (path as NSString).lastPathComponent

        var bulkLoadStarted = false
        func flush() throws(RecordStoreError) {
            guard !batch.isEmpty else { return }
            if !bulkLoadStarted {
                // The file's size over the bytes of the first batch estimates the records to come.
                let estimate = reader.bytesRead > 0 ? Int(Double(batch.count) * Double(reader.fileSize) / Double(reader.bytesRead)) : batch.count
                try store.embedded.beginBulkLoad(of: recordType, incoming: estimate)
                bulkLoadStarted = true
            }
            try save(batch, into: store)
            count += batch.count
            let lastRecordName = batch.last?.recordID.recordName
            batch.removeAll(keepingCapacity: true)
            progress(Progress(
                recordCount: count, lastRecordName: lastRecordName, bytesRead: reader.bytesRead,
                totalBytes: reader.fileSize, elapsed: Date().timeIntervalSince(start)))
        }

        func add(_ object: Value, line: Int) throws(RecordStoreError) {
            guard case .object(let fields) = object else {
                throw RecordStoreError.malformedInput(file: file, line: line, message: "expected a JSON object, found \(object.typeName)")
            }
            generated += 1
            batch.append(try record(from: fields, line: line, file: file, generatedNumber: generated))
            if batch.count >= batchSize { try flush() }
        }

        do throws(RecordStoreError) {
            switch format {
            case .jsonLines:
                var lineNumber = 0
                while let line = reader.nextLine() {
                    lineNumber += 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    let value: Value
                    do {
                        value = try Value(jsonBytes: line)
                    } catch {
                        throw RecordStoreError.malformedInput(file: file, line: lineNumber, message: "bad JSON: \(error)")
                    }
                    try add(value, line: lineNumber)
                }
            case .json:
                let bytes = reader.readAll()
                let value: Value
                do {
                    value = try Value(jsonBytes: bytes)
                } catch let error as ValueJSONError {
                    let line = 1 + bytes.prefix(max(0, min(error.offset, bytes.count))).filter { $0 == 0x0A }.count
                    throw RecordStoreError.malformedInput(file: file, line: line, message: "bad JSON: \(error.message)")
                } catch {
                    throw RecordStoreError.malformedInput(file: file, line: 1, message: "bad JSON: \(error)")
                }
                guard case .list(let objects) = value else {
                    throw RecordStoreError.malformedInput(file: file, line: 1, message: "expected a JSON array of objects")
                }
                for (index, object) in objects.enumerated() {
                    try add(object, line: index + 1)
                }
            case .csv:
                var lineNumber = 0
                func nextLine() -> [UInt8]? {
                    lineNumber += 1
                    return reader.nextLine()
                }
                guard let headerLine = nextLine() else { break }
                let header: [String]
                do {
                    header = try CSVParser.cells(firstLine: headerLine, moreLines: nextLine)
                } catch {
                    throw RecordStoreError.malformedInput(file: file, line: lineNumber, message: error.message)
                }
                while let line = nextLine() {
                    let first = lineNumber
                    if line.isEmpty { continue }
                    let cells: [String]
                    do {
                        cells = try CSVParser.cells(firstLine: line, moreLines: nextLine)
                    } catch {
                        throw RecordStoreError.malformedInput(file: file, line: first, message: error.message)
                    }
                    guard cells.count == header.count else {
                        throw RecordStoreError.malformedInput(file: file, line: first, message: "expected \(header.count) cells, found \(cells.count)")
                    }
                    var fields: [String: Value] = [:]
                    for (name, cell) in zip(header, cells) where !cell.isEmpty {
                        fields[name] = Self.csvValue(cell)
                    }
                    try add(.object(fields), line: first)
                }
            }
    try flush()
        } catch {
            // A failed import leaves the batches it committed, indexed.
            if bulkLoadStarted { try? store.embedded.finishBulkLoad() }
            throw error
        }
        // The indexes a bulk load deferred are built in one pass, then measured for the planner.
        if bulkLoadStarted { try store.embedded.finishBulkLoad() }
        try store.optimize()
        return Summary(recordCount: count, elapsed: Date().timeIntervalSince(start))
    }

    /// A CSV cell as a value: integers and decimal numbers become numbers, the rest stays text.
    static func csvValue(_ cell: String) -> Value {
        let bytes = cell.utf8
        let numeric = bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }
        guard numeric, let first = bytes.first, first != 0x2B else { return .string(cell) }
        // Keep codes with leading zeros ("007") as text.
        if bytes.count > 1, first == 0x30, bytes.dropFirst().first != 0x2E { return .string(cell) }
        if let integer = Int64(cell) { return .int(integer) }
        if let double = Double(cell), double.isFinite, cell.contains(where: { $0.isNumber }) { return .double(double) }
        return .string(cell)
    }

    /// The record for an object of fields.
    private func record(from fields: [String: Value], line: Int, file: String, generatedNumber: Int) throws(RecordStoreError) -> Record {
        var fields = fields
        let name: String
        if let idField {
            switch fields[idField] {
            case .string(let text)?: name = text
            case .int(let number)?: name = String(number)
            case .double(let number)? where number == number.rounded(): name = String(Int64(number))
            default:
                throw RecordStoreError.malformedInput(file: file, line: line, message: "the id field '\(idField)' is missing or not a string or integer")
            }
        } else {
            name = UUID().uuidString
        }
        for mapping in locations {
            guard let latitude = fields[mapping.latitudeField]?.numericValue,
                  let longitude = fields[mapping.longitudeField]?.numericValue else { continue }
            let location = Location(latitude: latitude, longitude: longitude)
            guard location.isValid else {
                throw RecordStoreError.malformedInput(file: file, line: line, message: "latitude \(latitude), longitude \(longitude) is not a valid location")
            }
            fields[mapping.name] = .location(location)
        }
        return Record(recordType: recordType, recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
    }

    /// Saves a batch; records already stored are replaced (their current change tags are
    /// fetched, all in one read, so resuming an import does not read record by record).
    private func save(_ batch: [Record], into store: Store) throws(RecordStoreError) {
        do {
            try store.save(batch)
        } catch .conflict {
            let stored = try store.embedded.records(for: batch.map(\.recordID))
            var updated = batch
            for index in updated.indices {
                updated[index].recordChangeTag = stored[updated[index].recordID]?.recordChangeTag
            }
            try store.save(updated)
        }
    }
}

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
        /// `json`: one JSON array of objects; `jsonLines`: one JSON object a line (blank lines
        /// skipped); `csv`: a header line naming the fields, then one record a line.
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
        /// The file's size on disk, in bytes (0 when it cannot be read).
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
    /// The zone to import into (a record in the export shape names its own).
    public var zone: ZoneID = .default
    /// The stored types of the record type's fields, when it has some: a CSV cell is read as its
    /// field's type (`"007"` stays text in a STRING field, `5` is a double in a DOUBLE field).
    ///
    /// ```swift
    /// importer.fieldTypes = Dictionary(uniqueKeysWithValues: (try store.schema(for: "City")?.fields ?? []).map { ($0.name, $0.type) })
    /// ```
    public var fieldTypes: [String: FieldType] = [:]
    /// Hears the indexes an import into a new or small record type builds at its end.
    ///
    /// ```swift
    /// importer.indexProgress = { step in print("\(step.task): \(step.completed)/\(step.total) \(step.unit)") }
    /// ```
    public var indexProgress: StoreOpeningProgressHandler?

    /// The index types of the fields the import adds to the record type (``IndexPolicy``); nil
    /// keeps the type's own setting (``IndexPolicy/automatic`` for a new type). Fields the type
    /// already has keep theirs.
    ///
    /// ```swift
    /// importer.justInTimeIndexes = .all   // every index a field's type can have, as before index types
    /// ```
    public var justInTimeIndexes: IndexPolicy?

    /// Creates an importer for a record type.
    public init(recordType: String) {
        self.recordType = recordType
    }

    /// Imports a file; `progress` is called after each batch, once the batch is committed. The
    /// synchronous form of ``importFile(at:into:progress:)-4bd11``, for the
    /// embedded engines.
    public func importFile(
        at path: String, into store: Store, progress: (Progress) -> Void = { _ in }
    ) throws(RecordStoreError) -> Summary {
        // The import runs on this thread while it waits (`SynchronousCall`): the callback is
        // never called from elsewhere.
        try withoutActuallyEscaping(progress) { (progress) throws(RecordStoreError) -> Summary in
            let callback = SynchronousCall.CallerValue(progress)
            return try store.synchronously { try await self.importFile(at: path, into: store, progress: { callback.value($0) }) }
        }
    }

    /// Imports a file through the `async` API, which every engine answers (a PostgreSQL store
    /// answers only this one); `progress` is called after each committed batch. Reading the file
    /// is blocking I/O: each batch is read off the cooperative pool, on a thread of its own, while
    /// the batch before it is saved (`PrefetchedRecordBatches`). An engine that can defer its
    /// index upkeep during a bulk load (SQLite, PostgreSQL) builds the indexes of a new or small record type
    /// in one pass at the end.
    ///
    /// ```swift
    /// let summary = try await importer.importFile(at: "cities1000.jsonl.gz", into: store)
    /// ```
    public func importFile(
        at path: String, into store: Store, progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws(RecordStoreError) -> Summary {
        // The next batch is read on a thread of its own while this one is saved.
        let batches = try await BlockingWork.run { () throws(RecordStoreError) in PrefetchedRecordBatches(try RecordFileBatches(path: path, importer: self)) }
        let start = Date()
        if let justInTimeIndexes {
            let existing = try await store.schema(for: recordType)
            // Defined only when the type is missing or its policy differs.
            if existing?.justInTimeIndexes != justInTimeIndexes {
                var schema = existing ?? RecordTypeSchema(name: recordType)
                schema.justInTimeIndexes = justInTimeIndexes
                try await store.define(schema)
            }
        }
        var count = 0
        var knownZones: Set<ZoneID> = [.default]
        var bulkLoadStarted = false
        do throws(RecordStoreError) {
            while let batch = try await batches.next() {
                if !bulkLoadStarted {
                    try await store.engine.beginBulkLoad(of: recordType, incoming: batches.estimatedRecordCount(afterFirst: batch))
                    bulkLoadStarted = true
                }
                for zone in Self.newZones(in: batch.records, known: &knownZones) { try await store.createZone(zone) }
                try await save(batch.records, into: store)
                count += batch.records.count
                progress(Progress(
                    recordCount: count, lastRecordName: batch.records.last?.recordID.recordName, bytesRead: batch.bytesRead,
                    totalBytes: batches.fileSize, elapsed: Date().timeIntervalSince(start)))
            }
        } catch {
            // A failed import leaves the batches it committed, indexed.
            if bulkLoadStarted { try? await store.engine.finishBulkLoad(progress: indexProgress) }
            throw error
        }
        // The indexes a bulk load deferred are built in one pass, then measured for the planner.
        if bulkLoadStarted { try await store.engine.finishBulkLoad(progress: indexProgress) }
        try await store.optimize()
        return Summary(recordCount: count, elapsed: Date().timeIntervalSince(start))
    }

    /// A CSV cell as a value. Typed JSON cells (`{"$date":…}`, `{"$location":…}`, `[…]`, as
    /// `export` writes them) become those values; a quoted cell is text, an unquoted one a
    /// number when it reads as one (``csvValue(_:)``) and a boolean when it is `true` or `false`
    /// (as `export` writes booleans, unquoted); and when the field's stored type is
    /// known, the cell is read as that type (`007` stays text in a STRING field, `5` is a double
    /// in a DOUBLE field, `true` a boolean in a BOOL field).
    package static func csvValue(_ cell: CSVParser.Cell, type: FieldType?) -> Value {
        let text = cell.text
        if type == .string { return .string(text) }
        if let first = text.utf8.first, first == UInt8(ascii: "[") || (first == UInt8(ascii: "{") && text.hasPrefix("{\"$")),
           let value = try? Value(jsonText: text) {
            if case .object = value { return .string(text) }
            return value
        }
        if type == .bool || (type == nil && !cell.quoted), text == "true" || text == "false" { return .bool(text == "true") }
        let guessed = cell.quoted && type != .int64 && type != .double ? .string(text) : csvValue(text)
        if type == .double, case .int(let integer) = guessed { return .double(Double(integer)) }
        return guessed
    }

    /// A CSV cell as a value: integers and decimal numbers become numbers, the rest stays text.
    package static func csvValue(_ cell: String) -> Value {
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
    package func record(from object: [String: Value], line: Int, file: String, generatedNumber: Int) throws(RecordStoreError) -> Record {
        if let exported = try Self.exportedRecord(object, line: line, file: file) {
            return try record(fields: exported.fields, name: exported.name, zone: exported.zone ?? zone, line: line, file: file)
        }
        let fields = object
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
        return try record(fields: fields, name: name, zone: zone, line: line, file: file)
    }

    /// The record of a name and fields, with the location fields built.
    private func record(fields: [String: Value], name: String, zone: ZoneID, line: Int, file: String) throws(RecordStoreError) -> Record {
        var fields = fields
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

    /// The name, zone and fields of an object in the shape `query find --output jsonl` and
    /// `query export` write, `{"recordName", "recordType", "zone", "fields"}`, or nil for a
    /// flat object of fields. Its `recordType` is not checked: the importer's type is used.
    package static func exportedRecord(_ object: [String: Value], line: Int, file: String) throws(RecordStoreError) -> (name: String, zone: ZoneID?, fields: [String: Value])? {
        guard case .object(let fields)? = object["fields"], case .string(let name)? = object["recordName"],
              object.keys.allSatisfy(exportedRecordKeys.contains) else { return nil }
        var zone: ZoneID?
        switch object["zone"] {
        case nil: zone = nil
        case .string(let zoneName)?: zone = ZoneID(zoneName: zoneName)
        case let other?: throw RecordStoreError.malformedInput(file: file, line: line, message: "the zone is a string, not \(other.typeName)")
        }
        return (name, zone, fields)
    }

    /// The zones of a batch not seen before (exported records name theirs), now known: an
    /// import creates them, as creating a zone that exists does nothing.
    private static func newZones(in batch: [Record], known: inout Set<ZoneID>) -> [ZoneID] {
        var found: [ZoneID] = []
        for record in batch where known.insert(record.recordID.zoneID).inserted { found.append(record.recordID.zoneID) }
        return found
    }

    /// The keys of an exported record.
    private static let exportedRecordKeys: Set<String> = ["recordName", "recordType", "zone", "fields"]

    /// Saves a batch; records already stored are replaced (their current change tags are
    /// fetched, all in one read, so resuming an import does not read record by record).
    private func save(_ batch: [Record], into store: Store) async throws(RecordStoreError) {
        do {
            try await store.save(batch)
        } catch .conflict {
            try await store.save(Self.replacing(batch, stored: store.engine.records(for: batch.map(\.recordID))))
        }
    }

    /// The batch with the stored change tags, so that saving it replaces what is stored.
    private static func replacing(_ batch: [Record], stored: [RecordID: Record]) -> [Record] {
        var updated = batch
        for index in updated.indices {
            updated[index].recordChangeTag = stored[updated[index].recordID]?.recordChangeTag
        }
        return updated
    }
}

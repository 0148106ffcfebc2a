import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query save`: creates or updates records from JSON, CloudKit's way: a record without a
/// change tag is created (an existing one is a conflict), a record with the change tag it was
/// read with is updated (a changed one is a conflict), and `--force` replaces whatever is stored.
struct SaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Create or update records from JSON (--record, or JSON lines on standard input).",
        discussion: """
            A record is {"recordName", "zone", "recordChangeTag", "fields": {...}} (all but fields \
            optional; a missing recordName is generated), the shape find --output jsonl and export \
            print; an object without "fields" holds the fields themselves beside those keys. Values \
            use the JSON mapping: {"$date": …}, {"$location": [lat, lon]}, {"$ref": …}, {"$bytes": …}.
            Without recordChangeTag a record is created; with the tag it was read with, it is updated; \
            a record changed since (or already there) is a conflict, and nothing of its batch is saved. \
            Each saved record prints a line {"recordChangeTag", "recordName", "zone"}.
            Standard input is saved in transactions of --batch lines.
            Example: query save City --record '{"recordName": "p1", "fields": {"name": "Paris", "population": 2138551}}'
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @Option(name: .customLong("record"), help: ArgumentHelp("A record as JSON (otherwise JSON lines are read from standard input).", valueName: "json"))
    var record: String?

    @Flag(name: .customLong("force"), help: "Replace stored records whatever their change tags.")
    var force = false

    @Option(name: .customLong("batch"), help: "Records per transaction when reading standard input.")
    var batchSize = 1_000

    func validate() throws {
        if batchSize < 1 { throw ValidationError("--batch must be at least 1") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let output = BufferedOutput.standardOutput()
        if let record {
            try await save([try Self.record(fromJSON: record, type: recordType, source: "--record")], into: opened, output: output)
        } else {
            var batch: [Record] = []
            var lineNumber = 0
            while let line = readLine(strippingNewline: true) {
                lineNumber += 1
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                batch.append(try Self.record(fromJSON: line, type: recordType, source: "line \(lineNumber) of standard input"))
                if batch.count == batchSize {
                    try await save(batch, into: opened, output: output)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try await save(batch, into: opened, output: output) }
        }
        output.flush()
    }

    /// Saves one transaction's records and prints each one's new change tag.
    private func save(_ records: [Record], into store: Store, output: BufferedOutput) async throws {
        var records = records
        if force {
            let stored = try await StoreOptions.failing { () async throws(RecordStoreError) -> [Record?] in
                var found: [Record?] = []
                for record in records { found.append(try await store.record(for: record.recordID)) }
                return found
            }
            for index in records.indices { records[index].recordChangeTag = stored[index]?.recordChangeTag }
        }
        let saved: [Record]
        do {
            saved = try await store.save(records)
        } catch .conflict(let id, let expected, let found) {
            let error = RecordStoreError.conflict(id, expected: expected, found: found)
            throw CommandFailure("\(error.description); nothing of this batch was saved (--force replaces stored records)")
        } catch {
            throw CommandFailure(error.description)
        }
        for record in saved {
            output.writeLine(Value.jsonText(of: [
                "recordName": .string(record.recordID.recordName),
                "zone": .string(record.recordID.zoneID.zoneName),
                "recordChangeTag": record.recordChangeTag.map(Value.string) ?? .null,
            ]))
        }
    }

    /// A record of `type` from a JSON object; `source` names where the text came from in errors.
    static func record(fromJSON text: String, type: String, source: String) throws -> Record {
        let value: Value
        do {
            value = try Value(jsonText: text)
        } catch let error as JSONParsingError {
            throw CommandFailure("\(source) is not valid JSON: \(error.description)")
        }
        guard case .object(var object) = value else {
            throw CommandFailure("\(source) is a JSON object, not \(value.typeName)")
        }
        func string(_ key: String) throws -> String? {
            switch object.removeValue(forKey: key) {
            case nil, .null?: return nil
            case .string(let string)?: return string
            case let other?: throw CommandFailure("\(source): \(key) is a string, not \(other.typeName)")
            }
        }
        let name = try string("recordName") ?? UUID().uuidString
        let zone = try string("zone").map(ZoneID.init(zoneName:)) ?? .default
        let changeTag = try string("recordChangeTag")
        if let declaredType = try string("recordType"), declaredType != type {
            throw CommandFailure("\(source) is a \(declaredType) record, not \(type)")
        }
        let fields: [String: Value]
        switch object.removeValue(forKey: "fields") {
        case .object(let members)?:
            guard object.isEmpty else {
                throw CommandFailure("\(source): unknown keys beside fields: \(object.keys.sorted().joined(separator: ", "))")
            }
            fields = members
        case nil: fields = object
        case let other?: throw CommandFailure("\(source): fields is an object, not \(other.typeName)")
        }
        var record = Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
        record.recordChangeTag = changeTag
        return record
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// The records the differential tests query: every 130th city of cities15000 (262 cities
/// from every country, with a few derived fields of the types cities lack) plus a few records written to hurt (empty strings and lists, missing
/// fields, decomposed accents, LIKE wildcards, quotes, integer extremes, locations at the
/// poles and the antimeridian), loaded into a store of every ``TestEngine``.
struct DifferentialDataset: Sendable {
    /// Every record, as saved.
    let records: [Record]
    /// The same records in the reference engine (memory).
    let memory: Store
    /// The same records in every other engine, checked against ``memory``.
    let others: [(engine: TestEngine, store: Store)]

    /// Every store, the reference first.
    var stores: [Store] { [memory] + others.map(\.store) }

    /// Every `sampleStride`-th line of the data set is kept.
    static let sampleStride = 130
    static let recordType = "City"

    /// Loaded once for all differential tests.
    static let shared: Result<DifferentialDataset, RecordStoreError> = {
        do throws(RecordStoreError) {
            return .success(try load())
        } catch {
            return .failure(error)
        }
    }()

    private static func load() throws(RecordStoreError) -> DifferentialDataset {
        let reader = try CompressedFileReader(path: CitiesFixture.datasetPath)
        var records: [Record] = []
        var lineNumber = 0
        while let line = reader.nextLine() {
            defer { lineNumber += 1 }
            guard lineNumber % sampleStride == 0 else { continue }
            guard let value = try? Value(jsonBytes: line), case .object(var fields) = value,
                  case .int(let identifier)? = fields["geonameid"] else {
                throw .malformedInput(file: "cities15000.jsonl.gz", line: lineNumber + 1, message: "not a city")
            }
            if let latitude = fields["latitude"]?.numericValue, let longitude = fields["longitude"]?.numericValue {
                fields["location"] = .location(Location(latitude: latitude, longitude: longitude))
            }
            fields.merge(derivedFields(identifier: identifier, population: fields["population"]?.numericValue ?? 0)) { old, _ in old }
            records.append(Record(recordType: recordType, recordID: RecordID(recordName: String(identifier)), fields: fields))
        }
        records += edgeRecords
        let memory = Store.inMemory()
        let saved = try memory.save(records)
        try memory.define(declaredOnly)
        var others: [(engine: TestEngine, store: Store)] = []
        for engine in TestEngine.allCases where engine != TestEngine.reference {
            let store = try engine.makeStore()
            // Every index type, so that the differential tests check every indexed plan (list
            // members, folded forms, sort keys) against the evaluator; IndexTypeTests checks scans.
            try store.define(RecordTypeSchema(name: recordType, justInTimeIndexes: .all))
            try store.save(records)
            try store.define(declaredOnly)
            try store.optimize()
            others.append((engine, store))
        }
        return DifferentialDataset(records: saved, memory: memory, others: others)
    }

    /// Fields of the other types, derived from the city's numbers so every run sees the same:
    /// a date (`founded`), a boolean (`capital`), a double missing on a third of the cities
    /// (`elevation`, whole on half of the rest) and a list of integers (`codes`).
    static func derivedFields(identifier: Int64, population: Double) -> [String: Value] {
        var fields: [String: Value] = [
            "founded": .date(Date(timeIntervalSince1970: Double(identifier % 100_000) * -86_400 + 1_000_000_000)),
            "capital": .bool(population > 1_000_000),
            "codes": .list([.int(identifier % 7), .int(identifier % 11), .int(Int64(population) % 5)]),
        ]
        switch identifier % 3 {
        case 0: break
        case 1: fields["elevation"] = .double(Double(identifier % 3_000))
        default: fields["elevation"] = .double(Double(identifier % 3_000) + 0.25)
        }
        return fields
    }

    /// `missingField`: a field the schema declares and no record holds, so that predicates and
    /// sorts on a field that is nil everywhere are tested (a field the type never had is an error).
    static let declaredOnly = RecordTypeSchema(name: recordType, fields: [FieldSchema(name: "missingField", type: .string)])

    /// Records with the values that most often split engines apart.
    static let edgeRecords: [Record] = {
        func edge(_ name: String, _ fields: [String: Value]) -> Record {
            Record(recordType: recordType, recordID: RecordID(recordName: "edge-\(name)"), fields: fields)
        }
        return [
            edge("empty", [
                "name": "", "countrycode": "", "timezone": "", "admin1code": "", "population": 0,
                "alternatenames": .list([]), "latitude": 0.0, "longitude": 0.0,
                "location": .location(Location(latitude: 0, longitude: 0)),
            ]),
            edge("missing", ["name": "Nowhere", "countrycode": "ZZ"]),
            edge("decomposed", [
                "name": .string("A\u{30A}ngstro\u{308}m E\u{301}cole"), "countrycode": "SE", "timezone": "Europe/Stockholm",
                "admin1code": "01", "population": .int(Int64.max), "geonameid": .int(Int64.max),
                "alternatenames": ["", "ÉCOLE", "ecole", "Ecole"],
                "latitude": 90.0, "longitude": 0.0, "location": .location(Location(latitude: 90, longitude: 0)),
            ]),
            edge("wildcards", [
                "name": "100% of_cities*?", "countrycode": "US", "timezone": "America/New_York", "admin1code": "0",
                "population": -5, "geonameid": .int(Int64.min),
                "alternatenames": ["%", "_", "a_b", "a%b", "*", "?", "[a-z]", "\\"],
                "latitude": -16.5, "longitude": 179.999, "location": .location(Location(latitude: -16.5, longitude: 179.999)),
            ]),
            edge("turkish", [
                "name": "İstanbul straße ǅ ﬁ", "countrycode": "TR", "timezone": "Europe/Istanbul", "admin1code": "34",
                "population": 15_000_000, "alternatenames": ["ISTANBUL", "istanbul", "Strasse", "STRASSE", "ß"],
                "latitude": -16.5, "longitude": -179.999, "location": .location(Location(latitude: -16.5, longitude: -179.999)),
            ]),
            edge("cjk", [
                "name": "日本語 テスト 🙂", "countrycode": "JP", "timezone": "Asia/Tokyo", "admin1code": "40",
                "population": 1, "alternatenames": ["🙂", "日本", "テスト"],
                "latitude": -90.0, "longitude": -180.0, "location": .location(Location(latitude: -90, longitude: -180)),
            ]),
            edge("quotes", [
                "name": "O'Brien \"quoted\" back\\slash", "countrycode": "IE", "timezone": "Europe/Dublin",
                "admin1code": "L", "population": 15_000, "alternatenames": ["O'Brien", "\"quoted\""],
            ]),
            edge("spaces", [
                "name": "  San  Jose  ", "countrycode": "cr", "timezone": "America/Costa_Rica", "admin1code": "SJ",
                "population": 15_001, "alternatenames": ["san jose", "SAN JOSÉ", "San José"],
                "latitude": 9.93, "longitude": -84.08, "location": .location(Location(latitude: 9.93, longitude: -84.08)),
            ]),
            // Case pairs that fold to more or fewer characters, for the folded columns.
            edge("strasse", [
                "name": "STRASSE", "countrycode": "DE", "timezone": "Europe/Berlin", "admin1code": "16",
                "population": 15_002, "alternatenames": ["straße", "Straße", "İ", "i̇"],
            ]),
            edge("sao", [
                "name": "SÃO PAULO", "countrycode": "BR", "timezone": "America/Sao_Paulo", "admin1code": "27",
                "population": 15_003, "alternatenames": ["Sao Paulo", "são paulo", "ﬁ"],
            ]),
        ]
    }()
}

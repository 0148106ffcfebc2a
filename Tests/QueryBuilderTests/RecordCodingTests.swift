import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// A model with a property of every supported kind.
struct Everything: RecordModel, Identifiable, Equatable {
    struct Address: Codable, Equatable, Sendable {
        var street: String
        var city: String
        var zip: Int?
    }

    enum Status: String, Codable, Sendable {
        case active, retired
    }

    var id: UUID
    var text: String
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var flag: Bool
    var date: Date
    var data: Data
    var uuid: UUID
    var url: URL
    var status: Status
    var presentOptional: String?
    var missingOptional: Int?
    var tags: [String]
    var numbers: [Int]
    var emptyList: [Double]
    var matrix: [[Int]]
    var address: Address
    var previousAddresses: [Address]
    var scores: [String: Int]
    var location: Location
    var reference: Reference
    var owner: RecordReference<Item>

    static func sample() -> Everything {
        Everything(
            id: UUID(uuidString: "8D9A6A2B-1A2B-4C3D-8E9F-0123456789AB")!,
            text: "héllo \"world\"", int: -42, int8: -8, int16: 16_000, int32: -2_000_000_000, int64: Int64.max,
            uint: 42, uint8: 255, uint16: 65_535, uint32: 4_000_000_000, uint64: 9_000_000_000,
            double: 3.25, float: 1.5, flag: true, date: day(3), data: Data([0, 1, 2, 255]),
            uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, url: URL(string: "https://example.com/a?b=c")!,
            status: .retired, presentOptional: "here", missingOptional: nil,
            tags: ["a", "b"], numbers: [3, 1, 2], emptyList: [], matrix: [[1, 2], [3]],
            address: Address(street: "1 Rue de Rivoli", city: "Paris", zip: 75001),
            previousAddresses: [Address(street: "2 Main St", city: "Springfield", zip: nil)],
            scores: ["math": 90, "art": 75],
            location: Location(latitude: 48.8566, longitude: 2.3522),
            reference: Reference(recordName: "a1"),
            owner: RecordReference(recordName: "b2"))
    }
}

@Suite("Record coding")
struct RecordCodingTests {
    @Test func fieldsOfEveryKind() throws {
        let fields = try RecordEncoder().fields(for: Everything.sample())
        #expect(fields["id"] == "8D9A6A2B-1A2B-4C3D-8E9F-0123456789AB")
        #expect(fields["text"] == "héllo \"world\"")
        #expect(fields["int"] == .int(-42))
        #expect(fields["int64"] == .int(Int64.max))
        #expect(fields["uint32"] == .int(4_000_000_000))
        #expect(fields["double"] == .double(3.25))
        #expect(fields["float"] == .double(1.5))
        #expect(fields["flag"] == .bool(true))
        #expect(fields["date"] == .date(day(3)))
        #expect(fields["data"] == .bytes(Data([0, 1, 2, 255])))
        #expect(fields["uuid"] == "00000000-0000-0000-0000-000000000001")
        #expect(fields["url"] == "https://example.com/a?b=c")
        #expect(fields["status"] == "retired")
        #expect(fields["presentOptional"] == "here")
        #expect(fields["missingOptional"] == nil)
        #expect(fields["tags"] == ["a", "b"])
        #expect(fields["numbers"] == [3, 1, 2])
        #expect(fields["emptyList"] == .list([]))
        #expect(fields["matrix"] == .list([[1, 2], [3]]))
        #expect(fields["address"] == .object(["street": "1 Rue de Rivoli", "city": "Paris", "zip": 75001]))
        #expect(fields["previousAddresses"] == .list([.object(["street": "2 Main St", "city": "Springfield"])]))
        #expect(fields["scores"] == .object(["math": 90, "art": 75]))
        #expect(fields["location"] == .location(Location(latitude: 48.8566, longitude: 2.3522)))
        #expect(fields["reference"] == .reference(Reference(recordName: "a1")))
        #expect(fields["owner"] == .reference(Reference(recordName: "b2")))
        #expect(fields.count == 31)   // 32 properties, the nil optional has no field
    }

    @Test func storedRecordKeepsObjectsAsJSON() throws {
        let record = try RecordEncoder().record(for: Everything.sample())
        #expect(record.recordType == "Everything")
        #expect(record.recordID == RecordID(recordName: "8D9A6A2B-1A2B-4C3D-8E9F-0123456789AB"))
        #expect(record["address"] == #"{"city":"Paris","street":"1 Rue de Rivoli","zip":75001}"#)
        #expect(record["matrix"] == "[[1,2],[3]]")
        #expect(record["tags"] == ["a", "b"])
    }

    @Test func metadataNamesAreNotFieldsAndDecodeFromMetadata() throws {
        let fields = try RecordEncoder().fields(for: Note(recordName: "n1", text: "x"))
        #expect(fields == ["text": "x"])
        let record = Record(recordType: "Note", recordID: RecordID(recordName: "n1"), fields: ["text": "x"])
        #expect(try RecordDecoder().decode(Note.self, from: record) == Note(recordName: "n1", text: "x"))
    }

    @Test(arguments: TestEngine.allCases)
    func roundTripThroughTheStore(engine: TestEngine) throws {
        let context = ModelContext(store: try engine.makeStore())
        let sample = Everything.sample()
        try context.insert(sample)
        #expect(try Everything.query(in: context).all() == [sample])   // pending
        try context.save()
        let fresh = ModelContext(store: context.store)
        #expect(try Everything.query(in: fresh).all() == [sample])     // stored
        #expect(try Everything.query(in: fresh).where("tags CONTAINS %@", "b").count() == 1)
        #expect(try Everything.query(in: fresh).where("owner == %@", sample.owner).count() == 1)
    }

    @Test func roundTripWithoutTheStore() throws {
        let record = try RecordEncoder().record(for: Everything.sample())
        #expect(try RecordDecoder().decode(Everything.self, from: record) == Everything.sample())
        let fields = try RecordEncoder().fields(for: Everything.sample())
        #expect(try RecordDecoder().decode(Everything.self, fromFields: fields) == Everything.sample())
    }

    @Test func aFieldOfTheWrongTypeNamesRecordAndField() {
        let record = Record(recordType: "Item", recordID: RecordID(recordName: "x1"), fields: [
            "id": "x1", "name": "Pear", "quantity": "many", "date": .date(day(1)),
        ])
        #expect(throws: ModelCodingError.typeMismatch(recordType: "Item", recordName: "x1", field: "quantity", expected: "Int", found: "string")) {
            try RecordDecoder().decode(Item.self, from: record)
        }
        #expect(ModelCodingError.typeMismatch(recordType: "Item", recordName: "x1", field: "quantity", expected: "Int", found: "string").description
            == "Field 'quantity' of record 'Item/x1': expected Int, found string")
    }

    @Test func missingAndNestedFieldsAreNamed() throws {
        var fields = try RecordEncoder().fields(for: Everything.sample())
        fields["text"] = nil
        #expect(throws: ModelCodingError.missingField(recordType: "Everything", recordName: "e1", field: "text")) {
            try RecordDecoder().decode(Everything.self, fromFields: fields, recordName: "e1")
        }
        fields = try RecordEncoder().fields(for: Everything.sample())
        fields["address"] = .object(["street": "x", "city": 12])
        #expect(throws: ModelCodingError.typeMismatch(recordType: "Everything", recordName: "e1", field: "address.city", expected: "String", found: "integer")) {
            try RecordDecoder().decode(Everything.self, fromFields: fields, recordName: "e1")
        }
        fields = try RecordEncoder().fields(for: Everything.sample())
        fields["tags"] = ["a", 2]
        #expect(throws: ModelCodingError.typeMismatch(recordType: "Everything", recordName: "e1", field: "tags[1]", expected: "String", found: "integer")) {
            try RecordDecoder().decode(Everything.self, fromFields: fields, recordName: "e1")
        }
        fields = try RecordEncoder().fields(for: Everything.sample())
        fields["date"] = "yesterday"
        #expect(throws: ModelCodingError.typeMismatch(recordType: "Everything", recordName: "e1", field: "date", expected: "Date", found: "string")) {
            try RecordDecoder().decode(Everything.self, fromFields: fields, recordName: "e1")
        }
        fields = try RecordEncoder().fields(for: Everything.sample())
        fields["int8"] = 300
        #expect(throws: ModelCodingError.numberOutOfRange(recordType: "Everything", recordName: "e1", field: "int8", expected: "Int8", value: "300")) {
            try RecordDecoder().decode(Everything.self, fromFields: fields, recordName: "e1")
        }
    }

    @Test(arguments: TestEngine.allCases)
    func aBadStoredRecordFailsTheQueryWithItsName(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "x1"), fields: [
            "id": "x1", "name": "Pear", "quantity": 2.5, "date": .date(day(1)),
        ])])
        #expect(throws: ModelCodingError.typeMismatch(recordType: "Item", recordName: "x1", field: "quantity", expected: "Int", found: "double")) {
            try Item.query(in: ModelContext(store: store)).all()
        }
    }

    @Test func numbersConvertWhenTheyFit() throws {
        struct Numbers: RecordModel, Equatable { var a: Double; var b: Int; var c: Bool }
        let decoded = try RecordDecoder().decode(Numbers.self, fromFields: ["a": 2, "b": 3.0, "c": 1])
        #expect(decoded == Numbers(a: 2, b: 3, c: true))
    }
}

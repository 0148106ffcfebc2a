import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// A cursor resumes the query it was made for, constant for constant: `j / 3.0 > 1` prints
/// `j / 3 > 1`, and a cursor that re-parsed that print form resumed an integer division and
/// lost records. Cursors carry the constants apart from the text (``PredicateConstants``).
@Suite("Cursors carry the predicate's meaning, not its print form")
struct CursorPredicateMeaningTests {
    @Test("Pages of a query with an integral double make its whole answer", arguments: TestEngine.allCases)
    func integralDoubleSurvivesPaging(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Item", fields: [FieldSchema(name: "j", type: .int64), FieldSchema(name: "flag", type: .bool)]))
        try store.save([("a", 4), ("b", 5), ("c", 10)].map { name, j in
            Record(recordType: "Item", recordID: RecordID(recordName: name), fields: ["j": .int(j), "flag": .bool(true)])
        })
        let predicate = try FormatPredicate(format: "j / 3.0 > 1 AND j / 2.0 != 2.5 OR j == 5")
        #expect(predicate.predicateFormat == "(j / 3 > 1 AND j / 2 != 2.5) OR j == 5")
        #expect(try store.count(ofType: "Item", matching: predicate) == 3)
        let query = try RecordQuery(recordType: "Item", predicate: predicate, sorts: [Sort("j")])
        var batch = try store.firstBatch(matching: query, resultsLimit: 1)
        var names = batch.records.map(\.recordID.recordName)
        while let cursor = batch.cursor, names.count < 10 {
            batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 1)
            names += batch.records.map(\.recordID.recordName)
        }
        #expect(names == ["a", "b", "c"], "\(engine)")
    }

    @Test("Every kind of constant survives a cursor's encoding exactly")
    func constantsRoundTrip() throws {
        let date = Date(timeIntervalSinceReferenceDate: 736_214_400.123_456_7)
        let predicate = try FormatPredicate(
            format: "a == %@ AND b == %@ AND c == %@ AND d IN %@ AND e == %@ AND f == %@ AND g == %@ AND h == nil AND i / 3.0 > 1",
            argumentArray: [
                .double(3), .bool(true), .date(date), .list([.double(1), .int(2), .string("x")]),
                .location(Location(latitude: 1, longitude: 2, altitude: 3)),
                .reference(Reference(recordName: "r", zoneName: "Zone")), .bytes(Data([0, 1, 255])),
            ])
        let (template, values) = PredicateConstants.extract(from: predicate)
        #expect(template.predicateFormat == (0..<7).map { "\(Character(UnicodeScalar(UInt8(97 + $0)))) \($0 == 3 ? "IN" : "==") $queryCursorConstant\($0)" }
            .joined(separator: " AND ") + " AND h == nil AND i / $queryCursorConstant7 > $queryCursorConstant8")
        #expect(values.count == 9)
        var writer = CursorByteWriter()
        for value in values { writer.value(value) }
        var reader = CursorByteReader(writer.output)
        let read = values.indices.compactMap { _ in reader.value() }
        #expect(reader.isAtEnd)
        #expect(read == values)
        let reparsed = try FormatPredicate(format: template.predicateFormat)
        #expect(PredicateConstants.restore(reparsed, values: read) == predicate)
        // The print form alone does not survive: an integral double comes back an integer.
        #expect(try FormatPredicate(format: predicate.predicateFormat) != predicate)
    }
}

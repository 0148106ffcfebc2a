import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// A record's name is an identifier: two canonically equivalent spellings name two records on
/// every engine (found by the #27 differential work: the memory engine merged them, SQL did not).
@Suite("Record and zone names compare by their bytes")
struct RecordNameBytesTests {
    let composed = RecordID(recordName: "S\u{E3}o")          // São, NFC
    let decomposed = RecordID(recordName: "Sa\u{303}o")      // São, NFD

    @Test("Identifiers")
    func identifiers() {
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(ZoneID(zoneName: "S\u{E3}o") != ZoneID(zoneName: "Sa\u{303}o"))
        #expect(RecordID(recordName: "S\u{E3}o") == composed)
        #expect(RecordID(recordName: "S\u{E3}o").hashValue == composed.hashValue)
    }

    @Test("Two spellings are two records, each read back by its own name", arguments: TestEngine.allCases)
    func twoRecords(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([
            Record(recordType: "City", recordID: composed, fields: ["spelling": "composed"]),
            Record(recordType: "City", recordID: decomposed, fields: ["spelling": "decomposed"]),
        ])
        #expect(try store.count(ofType: "City", matching: .truePredicate) == 2)
        #expect(try store.record(for: composed)?["spelling"] == "composed")
        #expect(try store.record(for: decomposed)?["spelling"] == "decomposed")
        try store.delete([decomposed])
        #expect(try store.records(ofType: "City", matching: .truePredicate).map(\.recordID) == [composed])
    }
}

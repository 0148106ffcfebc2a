import Foundation
import PredicateLanguage
import Testing
@testable import RecordStoreCore

/// Issue #28: a record prints its name, type, zone and fields.
@Suite("Records print their fields")
struct RecordDescriptionTests {
    @Test("Name, type, zone, then the fields by name")
    func description() {
        let paris = Record(recordType: "City", recordID: RecordID(recordName: "2988507"),
                           fields: ["population": 2_138_551, "name": "Paris", "countrycode": "FR"])
        #expect(paris.description == #"2988507 (City, _defaultZone) ["countrycode": "FR", "name": "Paris", "population": 2138551]"#)
        #expect("\([paris])" == #"[2988507 (City, _defaultZone) ["countrycode": "FR", "name": "Paris", "population": 2138551]]"#)
    }

    @Test("The debug form adds the change tag and names dates")
    func debugDescription() {
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "a", zoneID: ZoneID(zoneName: "Work")),
                          fields: ["at": .date(Date(timeIntervalSince1970: 0))])
        #expect(note.debugDescription == #"a (Note, Work) ["at": Date(1970-01-01T00:00:00Z)]"#)
        note.recordChangeTag = "3"
        #expect(note.debugDescription == #"a (Note, Work, tag 3) ["at": Date(1970-01-01T00:00:00Z)]"#)
    }
}

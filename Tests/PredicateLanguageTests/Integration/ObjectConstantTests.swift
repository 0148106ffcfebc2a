import Foundation
import Testing
import PredicateLanguage

@Suite("Object constants")
struct ObjectConstantTests {
    @Test func objectConstantsPrintAsTypedJSONAndRoundTrip() throws {
        let object: Value = ["city": "Lyon", "zip": 69001, "since": .date(Date(timeIntervalSinceReferenceDate: 0)),
                             "where": .location(Location(latitude: 45.76, longitude: 4.84))]
        let predicate = try FormatPredicate(format: "address == %@", argumentArray: [object])
        #expect(predicate.predicateFormat == #"address == CAST("{\"city\":\"Lyon\",\"since\":{\"$date\":\"2001-01-01T00:00:00Z\"},\"where\":{\"$location\":[45.76,4.84]},\"zip\":69001}", "NSDictionary")"#)
        let reparsed = try FormatPredicate(format: predicate.predicateFormat)
        #expect(reparsed == predicate)
        #expect(try reparsed.evaluate(withValue: ["address": object]) == true)
    }
}

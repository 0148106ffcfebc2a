import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Value")
struct ValueTests {
    @Test func numbersCompareByValueAcrossKinds() {
        #expect(Value.int(1) == .double(1.0))
        #expect(Value.bool(true) == .int(1))
        #expect(Value.int(1) != .string("1"))
        #expect(Value.int(Int64.max) != .double(9_223_372_036_854_775_807.0))
        #expect(Set<Value>([.int(1), .double(1.0), .bool(true)]).count == 1)
    }
}

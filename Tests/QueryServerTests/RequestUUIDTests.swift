@testable import QueryServer
import Testing

/// The `uuid` of an error answer: a request ID's hexadecimal digits laid out as a UUID.
@Suite struct RequestUUIDTests {
    @Test func digitsArePaddedLowerCasedAndGrouped() {
        #expect(RequestUUID.format("3F2A9C01") == "00000000-0000-0000-0000-00003f2a9c01")
        #expect(RequestUUID.format("") == "00000000-0000-0000-0000-000000000000")
        // What is not a hexadecimal digit is left out, letters past `f` among it.
        #expect(RequestUUID.format("request-1g2G") == "00000000-0000-0000-0000-00000000ee12")
    }

    @Test func onlyTheLast32DigitsAreKept() {
        let forty = "0123456789abcdef0123456789ABCDEF01234567"
        #expect(RequestUUID.format(forty) == "89abcdef-0123-4567-89ab-cdef01234567")
    }
}

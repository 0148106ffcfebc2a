@testable import QueryServer
import Testing

/// The record names the server makes for the users of keys: `_` and 32 hex digits of a SHA-256.
@Suite struct UserRecordNameTests {
    @Test func aHashedNameIsTheDigestsFirst32HexDigits() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
        #expect(UserRecordName.name(hashing: "abc") == "_ba7816bf8f01cfea414140de5dae2223")
    }
}

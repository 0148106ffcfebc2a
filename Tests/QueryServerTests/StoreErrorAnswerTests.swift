import Foundation
@testable import QueryServer
import RecordStore
import Testing

/// The CloudKit error each store refusal is answered with, where the choice is not obvious.
@Suite struct StoreErrorAnswerTests {
    @Test("A write refused by a store opened on a standby is ACCESS_DENIED (403), not a retryable 503")
    func readOnlyStoreIsAccessDenied() {
        let answer = CloudKitService.serverError(.readOnlyStore(server: "standby:5432/cities", reason: "it was opened on a standby"))
        #expect(answer.code == .accessDenied)
        #expect(answer.code.status.code == 403)
        #expect(answer.retryAfter == nil)
        #expect(answer.reason == "The store on standby:5432/cities is read-only: it was opened on a standby")
    }

    @Test("An unreachable database is SERVICE_UNAVAILABLE with retryAfter")
    func serverUnavailableIsRetryable() {
        let answer = CloudKitService.serverError(.serverUnavailable(server: "db:5432/cities", reason: "connection refused"))
        #expect(answer.code == .serviceUnavailable)
        #expect(answer.retryAfter != nil)
    }
}

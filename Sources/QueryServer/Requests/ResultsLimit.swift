// Part of the Server trait: without it, this module is empty.
#if Server
/// A request's `resultsLimit`: 1 to 200 (``RequestLimits/maximumBatch``); absent, the most.
///
/// ```swift
/// let limit = try container.decodeIfPresent(ResultsLimit.self, forKey: .resultsLimit)?.value ?? RequestLimits.maximumBatch
/// ```
struct ResultsLimit: Decodable, JSONExpectation {
    static var expectation: String { "a number from 1 to \(RequestLimits.maximumBatch)" }

    let value: Int

    init(from decoder: any Decoder) throws {
        let limit = try decoder.singleValueContainer().decode(Int64.self)
        guard limit >= 1, limit <= Int64(RequestLimits.maximumBatch) else {
            throw ServerError(.badRequest, "\(decoder.codingPath.jsonPath) is \(Self.expectation)")
        }
        value = Int(limit)
    }
}

extension KeyedDecodingContainer {
    /// The request's `resultsLimit` under `key`: 1 to 200; absent, the most.
    func resultsLimit(_ key: Key) throws -> Int {
        try decodeIfPresent(ResultsLimit.self, forKey: key)?.value ?? RequestLimits.maximumBatch
    }
}
#endif

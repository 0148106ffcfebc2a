// Part of the Server trait: without it, this module is empty.
#if Server

/// The body of `schema/deploy`: `dryRun` (true: the plan only, nothing changed). An empty
/// body is `{}`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SchemaPlanRequest.self, from: ["dryRun": true])
/// request.dryRun   // true
/// ```
struct SchemaPlanRequest: Decodable {
    /// Whether only the plan is asked for.
    let dryRun: Bool

    private enum CodingKeys: String, CodingKey { case dryRun }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun, expected: "true for the plan only") ?? false
    }
}
#endif

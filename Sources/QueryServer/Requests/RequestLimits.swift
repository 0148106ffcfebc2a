// Part of the Server trait: without it, this module is empty.
#if Server
/// The limits every request is read under.
enum RequestLimits {
    /// The most records or operations one request may carry (CloudKit's 200).
    static let maximumBatch = 200
}
#endif

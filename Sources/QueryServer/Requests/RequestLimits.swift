/// The limits every request is read under.
enum RequestLimits {
    /// The most records or operations one request may carry (CloudKit's 200).
    static let maximumBatch = 200
}

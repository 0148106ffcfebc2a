import RecordStoreCore

/// One element of an observation, as ``EngineConformance/checkLiveChanges(_:)`` compares it.
struct LiveElement: Sendable {
    /// Why the element came.
    var kind: ResultsChange.Kind
    /// The results' record names, in order.
    var names: [String]
}

import RecordStore

/// The records a query prefetched and the key paths it prefetched, as a tree: what a decoder
/// needs to attach targets to references (``RecordReference/target``), following only the
/// prefetched key paths (so a cycle of references is attached as far as the key paths go, never forever).
struct PrefetchedTargets: Sendable {
    /// The records read.
    let related: RelatedRecords
    /// The relationships prefetched from the records at this level, and what follows each.
    let children: [String: PrefetchedKeyPaths]

    /// The targets one relationship further, or nil when that relationship was not prefetched.
    func following(_ relationship: String) -> PrefetchedTargets? {
        children[relationship].map { PrefetchedTargets(related: related, children: $0.children) }
    }
}

/// Prefetched key paths as a tree of relationship names: `["customer", "customer.address"]` is
/// `customer → address`.
struct PrefetchedKeyPaths: Sendable {
    var children: [String: PrefetchedKeyPaths] = [:]

    init(_ keyPaths: [String]) {
        for keyPath in keyPaths { insert(keyPath.split(separator: ".").map(String.init)[...]) }
    }

    private init() {}

    private mutating func insert(_ path: ArraySlice<String>) {
        guard let first = path.first else { return }
        var child = children[first] ?? PrefetchedKeyPaths()
        child.insert(path.dropFirst())
        children[first] = child
    }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// Metric handles made once per key and kept: a request looks its counter up in a dictionary
/// instead of asking the metrics factory, which registers a metric by its name and labels.
///
/// ```swift
/// let requests = MetricHandles<String, Counter> { route in Counter(label: "query_http_requests_total", dimensions: [("route", route)], factory: factory) }
/// requests["records/query"].increment()
/// ```
final class MetricHandles<Key: Hashable & Sendable, Handle: Sendable>: Sendable {
    private let make: @Sendable (Key) -> Handle
    private let handles = LockedState<[Key: Handle]>([:])

    /// Handles made by `make` on first use of each key.
    init(_ make: @escaping @Sendable (Key) -> Handle) {
        self.make = make
    }

    /// The handle of `key`, made now if it is the first use.
    subscript(key: Key) -> Handle {
        handles.withLock { handles in
            if let handle = handles[key] { return handle }
            let handle = make(key)
            handles[key] = handle
            return handle
        }
    }
}
#endif

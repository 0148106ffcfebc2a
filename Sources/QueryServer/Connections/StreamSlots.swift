// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The long-lived streams (`subscriptions/events`) each caller holds open, with a cap per caller
/// (``ServerConfiguration/maximumStreamsPerCaller``), so that no caller can hold the server's
/// connections with streams that never end.
///
/// A caller is a key ID, or for an API token or a server without credentials the client's
/// address (an API token is public: its holders are told apart by address). A stream holds its
/// ``Slot`` until the slot is released, which happens when the stream's answer is done with,
/// however it ends (the client leaves, the server shuts down, or the answer was never sent).
///
/// ```swift
/// let streams = StreamSlots(cap: 8)
/// let slot = try streams.take(for: "key:2f1b")   // THROTTLED past 8 open streams
/// ```
final class StreamSlots: Sendable {
    /// Streams a caller may hold at once.
    let cap: Int
    private let open = LockedState<[String: Int]>([:])

    init(cap: Int) {
        self.cap = cap
    }

    /// The streams a caller holds now.
    func streams(of caller: String) -> Int { open.withLock { $0[caller] ?? 0 } }

    /// A slot for one more stream of the caller, or `THROTTLED` when it holds ``cap`` already.
    func take(for caller: String) throws(ServerError) -> Slot {
        let taken = open.withLock { counts in
            let count = counts[caller] ?? 0
            guard count < cap else { return false }
            counts[caller] = count + 1
            return true
        }
        guard taken else {
            throw ServerError(.throttled, "this caller holds \(cap) open event streams, the most it may; close one and retry", retryAfter: 1)
        }
        return Slot(slots: self, caller: caller)
    }

    fileprivate func release(_ caller: String) {
        open.withLock { counts in
            let count = (counts[caller] ?? 1) - 1
            counts[caller] = count > 0 ? count : nil
        }
    }

    /// One open stream's place; released when the last reference to it goes.
    final class Slot: Sendable {
        private let slots: StreamSlots
        private let caller: String

        fileprivate init(slots: StreamSlots, caller: String) {
            self.slots = slots
            self.caller = caller
        }

        deinit { slots.release(caller) }
    }

    /// The caller a request's streams count against.
    static func caller(of context: ServerRequestContext) -> String {
        switch context.caller {
        case .key(let keyID): "key:" + keyID
        case .apiToken: "token-address:" + context.clientAddress
        case .anyone: "address:" + context.clientAddress
        }
    }
}
#endif

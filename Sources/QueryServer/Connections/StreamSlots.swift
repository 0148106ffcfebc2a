// Part of the Server trait: without it, this module is empty.
#if Server
import NIOCore
import RecordStore

/// The long-lived streams (`subscriptions/events`) each caller holds open, with a cap per caller
/// (``ServerConfiguration/maximumStreamsPerCaller``), so that no caller can hold the server's
/// connections with streams that never end.
///
/// A caller is a key ID, or for an API token or a server without credentials the client's
/// address (an API token is public: its holders are told apart by address). A stream holds its
/// ``Slot`` until its connection closes (the client left: the slot is free at once, not only
/// when the stream next writes) or its answer is done with, whichever comes first, so that a
/// slot is never kept by a stream that ended another way (the server shut down, or the answer
/// was never sent).
///
/// ```swift
/// let streams = StreamSlots(cap: 8)
/// let slot = try streams.take(for: "key:2f1b", connectionClosed: channel.closeFuture)   // THROTTLED past 8 open streams
/// ```
final class StreamSlots: Sendable {
    /// Streams a caller may hold at once.
    let cap: Int
    private let open = CappedCounts()

    init(cap: Int) {
        self.cap = cap
    }

    /// The streams a caller holds now.
    func streams(of caller: String) -> Int { open.count(of: caller) }

    /// A slot for one more stream of the caller, or `THROTTLED` when it holds ``cap`` already;
    /// released when `connectionClosed` completes, if not before.
    func take(for caller: String, connectionClosed: EventLoopFuture<Void>) throws(ServerError) -> Slot {
        let slot = try take(for: caller)
        connectionClosed.whenComplete { [weak slot] _ in slot?.release() }
        return slot
    }

    /// A slot for one more stream of the caller, or `THROTTLED` when it holds ``cap`` already.
    func take(for caller: String) throws(ServerError) -> Slot {
        guard open.add(caller, upTo: cap, refusingPastLimit: true) else {
            throw ServerError(.throttled, "this caller holds \(cap) open event streams, the most it may; close one and retry", retryAfter: 1)
        }
        return Slot(slots: self, caller: caller)
    }

    fileprivate func release(_ caller: String) {
        open.remove(caller)
    }

    /// One open stream's place: released by ``release()`` (when its connection closes) or when
    /// the last reference to it goes, once.
    final class Slot: Sendable {
        private let slots: StreamSlots
        private let caller: String
        private let held = LockedState(true)

        fileprivate init(slots: StreamSlots, caller: String) {
            self.slots = slots
            self.caller = caller
        }

        /// Gives the place back (again: nothing).
        func release() {
            let wasHeld = held.withLock { held in
                defer { held = false }
                return held
            }
            if wasHeld { slots.release(caller) }
        }

        deinit { release() }
    }

    /// The caller a request's streams count against.
    static func caller(of context: ServerRequestContext) -> String {
        switch context.caller {
        case .key(let keyID): "key:" + keyID
        case .apiToken: "token-address:" + context.clientAddress
        case .user(let userRecordName): "user:" + userRecordName
        case .anyone: "address:" + context.clientAddress
        case .administrator: "administrator"
        }
    }
}
#endif

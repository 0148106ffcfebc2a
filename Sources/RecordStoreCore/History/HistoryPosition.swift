/// A place in a store's change history, in its order: the commit's change position, then the
/// record (or zone) name among what that commit changed. Reading "after" a place returns what
/// sorts after it. A place without a name stands after everything its commit changed
/// (`HistoryPosition(position: p)`: all of commit `p` and before it was read); ``start`` stands
/// before everything.
///
/// Every commit that changes records or zones takes a change position
/// (``RecordWriteTransaction/nextChangePosition()``), unique store-wide: the next value of the
/// store's counter, which grows in commit order (SQLite, memory), or the transaction's ID plus a
/// base (PostgreSQL), which does not, and which readers read only up to a bound that no running
/// writer can still come in under. Records stored before the store kept a history carry
/// position 0.
///
/// ```swift
/// HistoryPosition(position: 7, name: "b") < HistoryPosition(position: 7)   // true
/// HistoryPosition(position: 7) < HistoryPosition(position: 8, name: "a")   // true
/// ```
@_spi(StorageEngine) public struct HistoryPosition: Sendable, Hashable, Comparable {
    /// The commit's change position.
    @_spi(StorageEngine) public var position: Int64
    /// The last record or zone name read within the commit; nil when the whole commit was read.
    @_spi(StorageEngine) public var name: String?

    @_spi(StorageEngine) public init(position: Int64, name: String? = nil) {
        self.position = position
        self.name = name
    }

    /// Before everything (names are never empty).
    @_spi(StorageEngine) public static let start = HistoryPosition(position: 0, name: "")

    /// Names compare by their UTF-8 bytes, as `COLLATE "C"` and SQLite's `BINARY` do; no name
    /// sorts after every name.
    @_spi(StorageEngine) public static func < (lhs: HistoryPosition, rhs: HistoryPosition) -> Bool {
        if lhs.position != rhs.position { return lhs.position < rhs.position }
        switch (lhs.name, rhs.name) {
        case (let left?, let right?): return left.utf8.lexicographicallyPrecedes(right.utf8)
        case (_?, nil): return true
        case (nil, _): return false
        }
    }
}

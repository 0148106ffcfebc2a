@_spi(StorageEngine) import RecordStoreCore

/// One expression SQL orders a query's rows by (``SQLPlanner/orderKeys(_:)``): a sort's, or
/// the record name's, which breaks every remaining tie.
///
/// ```swift
/// let key = OrderKey(sql: "t.\"age\"", arguments: [], ascending: true, isRecordName: false)
/// dialect.orderTerm(key)   // t."age" ASC
/// ```
@_spi(StorageEngine) public struct OrderKey: Sendable, Hashable {
    /// The expression, on the record table aliased `t`.
    @_spi(StorageEngine) public var sql: String
    /// The arguments of its `?` markers.
    @_spi(StorageEngine) public var arguments: [SQLValue]
    /// Whether it orders ascending.
    @_spi(StorageEngine) public var ascending: Bool
    /// Whether it is the record name, the last key (never null: a plain `ASC`).
    @_spi(StorageEngine) public var isRecordName: Bool

    /// A key.
    @_spi(StorageEngine) public init(sql: String, arguments: [SQLValue], ascending: Bool, isRecordName: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.ascending = ascending
        self.isRecordName = isRecordName
    }
}

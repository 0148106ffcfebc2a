@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// GRDB exports a `Record` too: inside this engine, `Record` is always the store's record.
typealias Record = RecordStoreCore.Record

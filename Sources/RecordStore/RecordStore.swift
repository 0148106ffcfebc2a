// RecordStore, the library users import: the store (RecordStoreCore: records, zones, schema,
// queries, the engine contract and the memory engine) with its embedded engines (SQLite,
// through RecordStoreSQLite), which it registers for ``Store/open(url:mode:progress:)``.
//
// Engine authors import RecordStoreCore (and RecordStoreSQL for the shared SQL planner and
// executor) with `@_spi(StorageEngine)`: see the article "Writing a storage engine".
@_exported import PredicateLanguage
@_exported import RecordStoreCore
@_exported import RecordStoreSQLite

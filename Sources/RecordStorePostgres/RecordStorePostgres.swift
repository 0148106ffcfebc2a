// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
// `import RecordStorePostgres` is all a file needs: the PostgreSQL engine with the store it
// opens (`Store`, `RecordQuery`, `Sort`) and the predicate language (`FormatPredicate`).
@_exported import RecordStore
#endif

// `import QueryBuilder` is all a file needs: the builder, the store (`Store`, `RecordQuery`,
// `Sort`, the embedded engines) and the predicate language (`FormatPredicate`, `Value`), whose
// types the builder's API takes and returns.
@_exported import RecordStore

// `import QueryServer` is all a file needs: the server with the store it serves (`Store`) and
// the predicate language.
@_exported import RecordStore

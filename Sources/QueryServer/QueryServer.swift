// Part of the Server trait: without it, this module is empty.
#if Server
// `import QueryServer` is all a file needs: the server with the store it serves (`Store`) and
// the predicate language.
@_exported import RecordStore
#endif

import ArgumentParser

/// How `changes` prints: the changes, then the token to continue from and whether more changes
/// wait, always on standard output (unlike `find`'s cursor, the token is part of every answer:
/// a client keeps it for its next run).
enum ChangesOutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// The saved records as a table (with a `recordType` column), then `deleted: TYPE NAME` lines,
    /// then `token: TOKEN` and `moreComing: true|false` as the last two lines.
    case table
    /// One document: `{"moreComing": …, "records": [...], "token": "…"}`, a deleted record as
    /// `{"deleted": true, "recordName", "recordType", "zone"}` among the records.
    case json
    /// A record a line (deleted ones with `"deleted": true`), then `{"moreComing": …, "token": "…"}`.
    case jsonl
}

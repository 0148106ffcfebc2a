/// The six system fields a record type of `.ckdb` text lists first, as CloudKit's export and
/// this store's print them (`CloudKitSchemaDocument.ckdbText`), shared by the tests that spell
/// out expected schema text.
///
/// The lines are indented for a record type's body (eight spaces) and aligned for the field
/// names of the tests' types (at most 15 characters); there is no final newline. Interpolate
/// them at the start of a line of a multi-line literal, whose indentation they do not share:
///
/// ```swift
/// let expected = """
///     DEFINE SCHEMA
///
///         RECORD TYPE City (
///     \(CKDBSystemFields.lines)
///             name            STRING QUERYABLE SEARCHABLE SORTABLE
///         );
///     """
/// ```
public enum CKDBSystemFields {
    /// The six lines, each indented by eight spaces, joined by newlines.
    public static let lines = [
        #""___createTime" TIMESTAMP,"#,
        #""___createdBy"  REFERENCE,"#,
        #""___etag"       STRING,"#,
        #""___modTime"    TIMESTAMP,"#,
        #""___modifiedBy" REFERENCE,"#,
        #""___recordID"   REFERENCE QUERYABLE,"#,
    ].map { String(repeating: " ", count: 8) + $0 }.joined(separator: "\n")
}

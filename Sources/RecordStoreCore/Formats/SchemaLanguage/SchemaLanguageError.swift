/// What is wrong with a `.ckdb` document: text that does not follow the grammar (with its line
/// and column), a document the store cannot take (naming the record type, field and line), or
/// an error of the store while applying it.
///
/// ```swift
/// do {
///     _ = try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE City (name STRNG);")
/// } catch {
///     print(error)
///     // line 1, column 38: expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES,
///     // REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>), found 'STRNG'
/// }
/// ```
public enum SchemaLanguageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text does not follow the grammar at this line and column (both from 1; the column
    /// counts Unicode scalars).
    case syntax(line: Int, column: Int, message: String)
    /// The document is well formed but the store cannot apply it: an `ASSET` field, a field
    /// whose type would change, a name the store refuses. `line` is the declaration's line when
    /// the document was parsed from text.
    case notApplicable(recordType: String, field: String?, line: Int?, reason: String)
    /// The store failed while applying or reading the schema.
    case store(RecordStoreError)

    /// The message: `line 7, column 21: expected …`, `line 12: record type 'City', field 'photo': …`.
    public var description: String {
        switch self {
        case .syntax(let line, let column, let message):
            return "line \(line), column \(column): \(message)"
        case .notApplicable(let recordType, let field, let line, let reason):
            let place = line.map { "line \($0): " } ?? ""
            let subject = field.map { "record type '\(recordType)', field '\($0)'" } ?? "record type '\(recordType)'"
            return "\(place)\(subject): \(reason)"
        case .store(let error):
            return error.description
        }
    }
}

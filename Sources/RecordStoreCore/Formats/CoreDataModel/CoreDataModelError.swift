/// What is wrong with a Core Data model: a file that cannot be read, XML that is malformed (with
/// the line and column), a model that contradicts itself (a parent or destination entity that
/// does not exist), a construct the store refuses (a composite or derived attribute), or a model
/// bundle whose current version cannot be told.
///
/// ```swift
/// do {
///     _ = try CoreDataModelReader.read(at: "Model.xcdatamodeld")
/// } catch {
///     print(error)
///     // Model.xcdatamodeld: 2 versions (Model.xcdatamodel, Model 2.xcdatamodel) and no
///     // .xccurrentversion naming the current one; …
/// }
/// ```
public enum CoreDataModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or folder at `path` cannot be read, or is not a model file or folder.
    case unreadable(path: String, reason: String)
    /// The file's XML is malformed (or declares a document type, or nests elements too deeply) at
    /// this line and column (both from 1, where `XMLParser` stopped; the column counts characters).
    case xml(file: String, line: Int, column: Int, message: String)
    /// The file is XML but not a valid model: a missing or malformed attribute, an entity, parent,
    /// destination or inverse that does not exist. `line` is the element's line.
    case invalid(file: String, line: Int?, message: String)
    /// The model uses something the store cannot represent and the reader refuses rather than
    /// skip: a composite, derived or Object ID attribute, an expression index, an unknown element
    /// or attribute. `line` is the element's line.
    case unsupported(file: String, line: Int?, message: String)
    /// A model bundle (`.xcdatamodeld`) whose current version cannot be told: several versions
    /// and no `.xccurrentversion`, a current version that does not exist, or no version at all.
    case version(bundle: String, message: String)

    /// The message, led by the file and the place: `Company.xcdatamodel/contents:12:9: …`.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .xml(let file, let line, let column, let message):
            return "\(file):\(line):\(column): malformed XML: \(message)"
        case .invalid(let file, let line, let message):
            return "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
        case .unsupported(let file, let line, let message):
            return "\(file)\(line.map { ":\($0)" } ?? ""): not supported: \(message)"
        case .version(let bundle, let message):
            return "\(bundle): \(message)"
        }
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the XML files Core Data models are kept in (a model's `contents`, a model bundle's
/// `.xccurrentversion` property list) into a tree of ``XMLElementNode``s, with Foundation's
/// `XMLParser` (FoundationXML on Linux).
///
/// It is strict where `XMLParser` would recover: the first error ends reading, as a
/// ``CoreDataModelError/xml(file:line:column:message:)`` with the parser's line and column. A
/// document type declaration is refused before the parser sees it, since its entities could
/// expand without bound; only a property list's external one (`<!DOCTYPE plist PUBLIC "…" "…">`,
/// no internal subset) is accepted, and only when asked for. External entities are never
/// resolved and nothing is fetched. Elements nest at most ``maximumDepth`` levels.
///
/// ```swift
/// let root = try XMLElementReader.read("""
///     <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
///     <model><entity name="Employee"/></model>
///     """)
/// root.children[0].attribute("name")   // "Employee"
/// ```
package enum XMLElementReader {
    /// How deeply elements may nest: model files nest five levels; a limit keeps a hostile
    /// document from building a tree whose release would recurse that deep.
    package static let maximumDepth = 256

    /// Reads a document from text and returns its root element; `file` names it in errors.
    package static func read(_ text: String, file: String = "contents", allowingExternalDocumentType: Bool = false) throws(CoreDataModelError) -> XMLElementNode {
        try read(Data(text.utf8), file: file, allowingExternalDocumentType: allowingExternalDocumentType)
    }

    /// Reads a document from its bytes and returns its root element; `file` names it in errors.
    ///
    /// - Parameter allowingExternalDocumentType: whether a `<!DOCTYPE …>` naming only an external
    ///   definition (as every property list has) is accepted; the definition is not read.
    package static func read(_ data: Data, file: String, allowingExternalDocumentType: Bool = false) throws(CoreDataModelError) -> XMLElementNode {
        try checkDocumentType(data, file: file, allowingExternal: allowingExternalDocumentType)
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let succeeded = parser.parse()
        if let failure = builder.failure {
            throw .xml(file: file, line: failure.line, column: failure.column, message: failure.message)
        }
        if !succeeded {
            let code = parser.parserError.map { ($0 as NSError).code } ?? 0
            throw .xml(file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: builder.message(forCode: code))
        }
        guard let root = builder.root else {
            throw .xml(file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: "the document has no root element")
        }
        return root
    }

    /// Refuses a document type declaration, or, when external ones are allowed, one with an
    /// internal subset (`[…]`), whose entity declarations `XMLParser` would expand. `<!DOCTYPE`
    /// anywhere is refused: it cannot appear in a model's text or attribute values, where `<` is
    /// written `&lt;`.
    private static func checkDocumentType(_ data: Data, file: String, allowingExternal: Bool) throws(CoreDataModelError) {
        guard let declaration = data.range(of: Data("<!DOCTYPE".utf8)) else { return }
        guard allowingExternal else {
            let (line, column) = place(of: declaration.lowerBound, in: data)
            throw .xml(file: file, line: line, column: column, message: "a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read")
        }
        var quote: UInt8?
        for index in declaration.upperBound..<data.endIndex {
            let byte = data[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return
            } else if byte == UInt8(ascii: "[") {
                let (line, column) = place(of: index, in: data)
                throw .xml(file: file, line: line, column: column, message: "a document type declaration with an internal subset ('[…]') is refused: its declarations are not read")
            }
        }
    }

    /// The line and column (both from 1, the column in Unicode scalars) of the byte at `offset`.
    private static func place(of offset: Data.Index, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.startIndex + 3 : data.startIndex   // a byte order mark
        while index < offset {
            let byte = data[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 == data.endIndex || data[index + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}

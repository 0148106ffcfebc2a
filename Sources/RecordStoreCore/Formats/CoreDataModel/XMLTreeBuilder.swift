import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate behind ``XMLElementReader``: it builds the tree of
/// ``XMLElementNode``s from the parser's events, keeps the first error with the parser's line and
/// column (and stops the parser there, since `XMLParser` would otherwise recover and go on), and
/// refuses elements nested deeper than ``XMLElementReader/maximumDepth``.
///
/// ```swift
/// let builder = XMLTreeBuilder()
/// let parser = XMLParser(data: Data("<model><entity name=\"E\"/></model>".utf8))
/// parser.delegate = builder
/// _ = parser.parse()
/// builder.root?.children.first?.attribute("name")   // "E"
/// ```
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// The root element, once it has been closed.
    private(set) var root: XMLElementNode?
    /// The first error: its line, column and what was wrong.
    private(set) var failure: (line: Int, column: Int, message: String)?
    /// The elements opened and not yet closed, outermost first.
    private var open: [XMLElementNode] = []

    /// Records the first error at the parser's position and stops the parser.
    func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = (max(parser.lineNumber, 1), max(parser.columnNumber, 1), message)
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard open.count < XMLElementReader.maximumDepth else {
            return fail(parser, "elements are nested deeper than \(XMLElementReader.maximumDepth) levels")
        }
        open.append(XMLElementNode(name: elementName, attributes: attributes, line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, let closed = open.popLast() else { return }
        if open.isEmpty {
            root = closed
        } else {
            open[open.count - 1].children.append(closed)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !open.isEmpty else { return }
        open[open.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        self.parser(parser, foundCharacters: whitespaceString)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(parser, message(forCode: (parseError as NSError).code))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        fail(parser, message(forCode: (validationError as NSError).code))
    }

    /// The innermost open element, named with its line: `'<entity>' (line 3)`.
    private var innermost: String? {
        open.last.map { "'<\($0.name)>' (line \($0.line))" }
    }

    /// What an error code of `XMLParser` (libxml2's `xmlParserErrors`, the same numbers on every
    /// platform) means, in the words of the rest of the model reader's errors.
    func message(forCode code: Int) -> String {
        switch code {
        case 4: return "the document has no root element"
        case 5, 77:
            if let innermost { return "the document ends inside \(innermost), which is not closed" }
            if root != nil { return "content after the root element; a document has exactly one root element" }
            return "the document has no root element"
        case 6, 7, 8: return "a character reference ('&#…;') is malformed"
        case 9: return "a character XML does not allow, or bytes that are not UTF-8 (model files are written in UTF-8)"
        case 10...17: return "a reference ('&…;') outside the root element, or cut off by the end of the document"
        case 22, 23: return "'&' starts a reference that is not closed by ';'; write '&amp;' for '&'"
        case 26, 27:
            return "an unknown entity; XML defines &lt; &gt; &amp; &apos; &quot; and numeric references (&#10;, &#x27;)"
        case 31, 32, 79, 81: return "an encoding that is not supported; model files are written in UTF-8"
        case 38: return "'<' is not allowed in an attribute value; write '&lt;'"
        case 39: return "expected an attribute value in quotes"
        case 40: return "an attribute value is not closed by its quote"
        case 41: return "an attribute has no value"
        case 42, 203: return "an attribute appears twice in one start tag"
        case 45: return "a comment ('<!--') is not closed by '-->'"
        case 46, 47: return "a processing instruction ('<?') is not closed by '?>'"
        case 56, 57: return "the XML declaration ('<?xml …?>') is malformed"
        case 61: return "a document type declaration ('<!DOCTYPE') is not closed by '>'"
        case 62: return "']]>' is not allowed in text; write ']]&gt;'"
        case 63: return "a CDATA section ('<![CDATA[') is not closed by ']]>'"
        case 64: return "an XML declaration ('<?xml …?>') is only allowed at the very start of the document"
        case 65: return "expected white space, '>' or '/>' in a start tag"
        case 68: return "expected a name: an element's after '<' or '</', an attribute's, or an entity's after '&' (write '&amp;' for '&')"
        case 73: return "expected '>' or '/>' to end the start tag" + (innermost.map { " after \($0)" } ?? "")
        case 74: return "expected an end tag ('</')" + (innermost.map { " to close \($0)" } ?? "")
        case 75: return "expected '=' after an attribute's name"
        case 76: return "the end tag does not close " + (innermost ?? "the open element")
        case 78: return "standalone must be 'yes' or 'no'"
        case 80: return "'--' is not allowed inside a comment"
        case 85: return "the element is not well balanced" + (innermost.map { " inside \($0)" } ?? "")
        case 86: return "content after the root element; a document has exactly one root element"
        case 89: return "an entity refers to itself"
        case 96: return "the XML declaration has no version"
        case 97: return "the XML version is not supported; expected 1.0"
        case 200...299: return "an element or attribute uses a namespace prefix that is not declared, or a malformed qualified name"
        default: return "the XML is not well-formed (XMLParser error \(code))"
        }
    }
}

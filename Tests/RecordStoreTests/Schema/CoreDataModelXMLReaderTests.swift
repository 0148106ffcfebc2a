import Foundation
import Testing
@testable import RecordStoreCore

/// The XML reading behind the Core Data model reader (issue #30), on Foundation's `XMLParser`:
/// what model files hold is read exactly; malformed input, document types and deep nesting are
/// refused with their line and column, at the first error (where `XMLParser` would recover).
@Suite("Core Data model: the XML reader")
struct CoreDataModelXMLReaderTests {
    static func message(_ text: String, allowingExternalDocumentType: Bool = false) -> String? {
        message(Data(text.utf8), allowingExternalDocumentType: allowingExternalDocumentType)
    }

    static func message(_ data: Data, allowingExternalDocumentType: Bool = false) -> String? {
        do {
            _ = try XMLElementReader.read(data, file: "contents", allowingExternalDocumentType: allowingExternalDocumentType)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Declaration, comments, processing instructions, attributes, self-closing elements and text")
    func wellFormedDocument() throws {
        let root = try XMLElementReader.read("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!-- a comment before the root -->
            <?editor layout="wide"?>
            <model c = "x" a="1" b='two'>
                <entity name="E"/>
                <!-- between -->
                <note>some <?pi x?>text</note>
            </model>
            <!-- after -->
            """)
        #expect(root.name == "model")
        #expect(root.attributeNames == ["a", "b", "c"])
        #expect(root.attributes == ["a": "1", "b": "two", "c": "x"])
        #expect(root.children.map(\.name) == ["entity", "note"])
        #expect(root.children[0].attribute("name") == "E")
        #expect(root.children[0].children.isEmpty)
        #expect(root.children[0].line == 5)
        #expect(root.children[1].text == "some text")
        #expect(root.line == 4)
    }

    @Test("Entities, numeric references and CDATA are replaced; CDATA keeps markup as text")
    func references() throws {
        let root = try XMLElementReader.read(#"<r p="a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &apos;s&apos; &#10;&#x27;&#233;">x &lt;&#65;&#x42;&gt; <![CDATA[<raw> & ]] ]]></r>"#)
        #expect(root.attribute("p") == "a < b && c > d \"q\" 's' \n'é")
        #expect(root.text == "x <AB> <raw> & ]] ")
    }

    @Test("Line ends are normalized, and white space written in attribute values becomes spaces")
    func normalization() throws {
        let root = try XMLElementReader.read("<r p=\"a\tb\r\nc\">\r\n<c/>\r<d/></r>")
        #expect(root.attribute("p") == "a b c")
        #expect(root.text == "\n\n")
        // The value's own line end counts; a lone CR is LF in text, but XMLParser's line numbers
        // (libxml2's) do not count it.
        #expect(root.children.map(\.line) == [3, 3])
    }

    @Test("UTF-8 bytes with a byte order mark are read; a byte that is not UTF-8 names its place")
    func bytes() throws {
        let root = try XMLElementReader.read(Data([0xEF, 0xBB, 0xBF] + Array("<r>é</r>".utf8)), file: "contents")
        #expect(root.text == "é")
        #expect(Self.message(Data(Array("<r>\n<a>".utf8) + [0xFF] + Array("</a></r>".utf8)))
            == "contents:2:4: malformed XML: a character XML does not allow, or bytes that are not UTF-8 (model files are written in UTF-8)")
    }

    @Test("A property list's external document type is skipped when allowed, and never fetched")
    func externalDocumentType() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>k</key><string>v</string></dict></plist>
            """
        let root = try XMLElementReader.read(plist, allowingExternalDocumentType: true)
        #expect(root.children[0].children.map(\.text) == ["k", "v"])
        #expect(Self.message(plist) == "contents:2:1: malformed XML: a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read")
    }

    @Test("Exact messages for malformed input, with line and column", arguments: [
        ("", "contents:1:1: malformed XML: the document has no root element"),
        ("<!-- only a comment -->", "contents:1:24: malformed XML: the document has no root element"),
        ("<!DOCTYPE r [<!ENTITY a \"b\">]><r/>", "contents:1:1: malformed XML: a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read"),
        ("<model>\n  <entity>\n</model>", "contents:3:9: malformed XML: the end tag does not close '<entity>' (line 2)"),
        ("<model>\n  <entity>", "contents:2:11: malformed XML: the document ends inside '<entity>' (line 2), which is not closed"),
        ("<r a=\"1\" a=\"2\"/>", "contents:1:15: malformed XML: an attribute appears twice in one start tag"),
        ("<r a=\"x<y\"/>", "contents:1:8: malformed XML: '<' is not allowed in an attribute value; write '&lt;'"),
        ("<r a=x/>", "contents:1:6: malformed XML: expected an attribute value in quotes"),
        ("<r a=\"1\"b=\"2\"/>", "contents:1:9: malformed XML: expected white space, '>' or '/>' in a start tag"),
        ("<r a=\"1/>", "contents:1:10: malformed XML: an attribute value is not closed by its quote"),
        ("<r>&nbsp;</r>", "contents:1:10: malformed XML: an unknown entity; XML defines &lt; &gt; &amp; &apos; &quot; and numeric references (&#10;, &#x27;)"),
        ("<r>a & b</r>", "contents:1:7: malformed XML: expected a name: an element's after '<' or '</', an attribute's, or an entity's after '&' (write '&amp;' for '&')"),
        ("<r>&#0;</r>", "contents:1:8: malformed XML: a character XML does not allow, or bytes that are not UTF-8 (model files are written in UTF-8)"),
        ("<r>]]></r>", "contents:1:4: malformed XML: ']]>' is not allowed in text; write ']]&gt;'"),
        ("<r/><s/>", "contents:1:5: malformed XML: content after the root element; a document has exactly one root element"),
        ("<r/>text", "contents:1:5: malformed XML: content after the root element; a document has exactly one root element"),
        ("<r><!-- a -- b --></r>", "contents:1:11: malformed XML: '--' is not allowed inside a comment"),
        ("<r><!-- open", "contents:1:13: malformed XML: a comment ('<!--') is not closed by '-->'"),
        ("<r><![CDATA[ open</r>", "contents:1:13: malformed XML: the document ends inside '<r>' (line 1), which is not closed"),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>", "contents:1:38: malformed XML: an encoding that is not supported; model files are written in UTF-8"),
        ("<?xml encoding=\"UTF-8\"?><r/>", "contents:1:7: malformed XML: the XML declaration has no version"),
        ("<r>\u{1}</r>", "contents:1:4: malformed XML: a character XML does not allow, or bytes that are not UTF-8 (model files are written in UTF-8)"),
        ("< r/>", "contents:1:2: malformed XML: expected a name: an element's after '<' or '</', an attribute's, or an entity's after '&' (write '&amp;' for '&')"),
    ])
    func malformed(text: String, expected: String) {
        #expect(Self.message(text) == expected)
    }

    @Test("A document type with an internal subset is refused even when external ones are allowed")
    func internalSubset() {
        #expect(Self.message("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist>&a;</plist>", allowingExternalDocumentType: true)
            == "contents:1:17: malformed XML: a document type declaration with an internal subset ('[…]') is refused: its declarations are not read")
        #expect(Self.message("<!DOCTYPE plist SYSTEM \"a>b\" [<!ENTITY x SYSTEM \"file:///etc/hostname\">]><plist>&x;</plist>", allowingExternalDocumentType: true)
            == "contents:1:30: malformed XML: a document type declaration with an internal subset ('[…]') is refused: its declarations are not read")
    }

    @Test("Nesting is read up to the limit, and refused beyond it")
    func deepNesting() throws {
        let depth = XMLElementReader.maximumDepth
        var node = try XMLElementReader.read(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth))
        var levels = 1
        while let child = node.children.first {
            node = child
            levels += 1
        }
        #expect(levels == depth)
        let tooDeep = String(repeating: "<a>", count: 100_000)
        #expect(Self.message(tooDeep) == "contents:1:\(3 * depth + 3): malformed XML: elements are nested deeper than \(depth) levels")
    }
}

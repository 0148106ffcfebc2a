import Foundation
import Testing
@testable import RecordStoreCore

/// The strict XML reader behind the Core Data model reader (issue #30): what model files hold is
/// read exactly; malformed input and document types are refused with their line and column.
@Suite("Core Data model: the XML reader")
struct CoreDataModelXMLReaderTests {
    static func message(_ text: String, allowingExternalDocumentType: Bool = false) -> String? {
        do {
            _ = try XMLElementReader.read(text, allowingExternalDocumentType: allowingExternalDocumentType)
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
            <model a="1" b='two' c = "x">
                <entity name="E"/>
                <!-- between -->
                <note>some <?pi x?>text</note>
            </model>
            <!-- after -->
            """)
        #expect(root.name == "model")
        #expect(root.attributes.map(\.name) == ["a", "b", "c"])
        #expect(root.attributes.map(\.value) == ["1", "two", "x"])
        #expect(root.children.map(\.name) == ["entity", "note"])
        #expect(root.children[0].attribute("name") == "E")
        #expect(root.children[0].children.isEmpty)
        #expect(root.children[0].line == 5)
        #expect(root.children[0].column == 5)
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
        #expect(root.children.map(\.line) == [3, 4])   // the value's own line end counts
    }

    @Test("UTF-8 bytes with a byte order mark are read; a byte that is not UTF-8 names its place")
    func bytes() throws {
        let root = try XMLElementReader.read([0xEF, 0xBB, 0xBF] + Array("<r>é</r>".utf8))
        #expect(root.text == "é")
        #expect(throws: XMLReaderError(line: 2, column: 4, message: "the bytes here are not UTF-8; model files are written in UTF-8")) {
            try XMLElementReader.read(Array("<r>\n<a>".utf8) + [0xFF] + Array("</a></r>".utf8))
        }
    }

    @Test("A property list's external document type is skipped when allowed")
    func externalDocumentType() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>k</key><string>v</string></dict></plist>
            """
        let root = try XMLElementReader.read(plist, allowingExternalDocumentType: true)
        #expect(root.children[0].children.map(\.text) == ["k", "v"])
        #expect(Self.message(plist) == "line 2, column 1: a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read")
    }

    @Test("Exact messages for malformed input, with line and column", arguments: [
        ("", "line 1, column 1: the document has no root element"),
        ("<!DOCTYPE r [<!ENTITY a \"b\">]><r/>", "line 1, column 1: a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read"),
        ("<model>\n  <entity>\n</model>", "line 3, column 1: the end tag '</model>' does not close '<entity>' (line 2, column 3)"),
        ("<model>\n  <entity>", "line 2, column 11: the document ends inside '<entity>' (line 2, column 3), which is not closed"),
        ("<r a=\"1\" a=\"2\"/>", "line 1, column 10: the attribute 'a' appears twice in '<r>'"),
        ("<r a=\"x<y\"/>", "line 1, column 8: '<' is not allowed in an attribute value; write '&lt;'"),
        ("<r a=x/>", "line 1, column 6: expected an attribute value in quotes, found 'x'"),
        ("<r a=\"1\"b=\"2\"/>", "line 1, column 9: expected white space, '>' or '/>' in '<r', found 'b'"),
        ("<r a=\"1/>", "line 1, column 6: an attribute value is not closed by \""),
        ("<r>&nbsp;</r>", "line 1, column 4: unknown entity '&nbsp;'; XML defines &lt; &gt; &amp; &apos; &quot; and numeric references (&#10;, &#x27;)"),
        ("<r>a & b</r>", "line 1, column 6: '&' starts a reference that is not closed by ';'; write '&amp;' for '&'"),
        ("<r>&#0;</r>", "line 1, column 4: '&#0;' is not a character XML allows"),
        ("<r>&#xZZ;</r>", "line 1, column 4: '&#xZZ;' is not a character XML allows"),
        ("<r>]]></r>", "line 1, column 4: ']]>' is not allowed in text; write ']]&gt;'"),
        ("<r/><s/>", "line 1, column 5: a second root element; a document has exactly one"),
        ("<r/>text", "line 1, column 5: expected an element, a comment or a processing instruction, found 't' outside the root element"),
        ("<r><!-- a -- b --></r>", "line 1, column 11: '--' is not allowed inside a comment"),
        ("<r><!-- open", "line 1, column 4: a comment ('<!--') is not closed by '-->'"),
        ("<r><![CDATA[ open</r>", "line 1, column 4: a CDATA section ('<![CDATA[') is not closed by ']]>'"),
        ("<r><!ELEMENT r ANY></r>", "line 1, column 4: a declaration ('<!') is not allowed inside an element"),
        ("\n<?xml version=\"1.0\"?><r/>", "line 2, column 1: an XML declaration ('<?xml …?>') is only allowed at the very start of the document"),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>", "line 1, column 21: encoding 'UTF-16' is not supported; model files are written in UTF-8"),
        ("<?xml encoding=\"UTF-8\"?><r/>", "line 1, column 1: the XML declaration has no version"),
        ("<r>\u{1}</r>", "line 1, column 4: the character U+0001 is not allowed in XML"),
        ("< r/>", "line 1, column 2: expected an element name after '<', found U+0020"),
        ("<r></ r>", "line 1, column 6: expected an element name after '</', found U+0020"),
    ])
    func malformed(text: String, expected: String) {
        #expect(Self.message(text) == expected)
    }

    @Test("A document type with an internal subset is refused even when external ones are allowed")
    func internalSubset() {
        #expect(Self.message("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist/>", allowingExternalDocumentType: true)
            == "line 1, column 17: a document type declaration with an internal subset ('[…]') is refused: its declarations are not read")
    }

    @Test("Nesting is read without recursion up to the limit, and refused beyond it")
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
        #expect(Self.message(tooDeep) == "line 1, column \(3 * depth + 1): elements are nested deeper than \(depth) levels")
    }
}

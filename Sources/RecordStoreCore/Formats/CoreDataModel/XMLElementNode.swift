/// One element of an XML document as ``XMLElementReader`` reads it: its name, its attributes, its
/// child elements, and its text (the text and CDATA sections directly inside it, joined; comments
/// and processing instructions are dropped).
///
/// ```swift
/// let root = try XMLElementReader.read(#"<dict><key>a</key><string>b &amp; c</string></dict>"#)
/// root.children.map(\.name)   // ["key", "string"]
/// root.children[1].text       // "b & c"
/// ```
package struct XMLElementNode: Sendable, Hashable {
    /// The element's name, with its prefix if it has one (`xsi:type`).
    package var name: String
    /// The attributes by name, their values with references replaced. (`XMLParser` does not
    /// report the order they were written in; ``attributeNames`` gives them sorted.)
    package var attributes: [String: String]
    /// The child elements, in order.
    package var children: [XMLElementNode]
    /// The text directly inside the element, references replaced and CDATA sections unwrapped.
    package var text: String
    /// The line where the element's start tag ends, from 1, as `XMLParser` reports it (model
    /// files write each start tag on one line, so it is the line of the `<`).
    package var line: Int

    /// Creates an element.
    package init(name: String, attributes: [String: String] = [:], children: [XMLElementNode] = [], text: String = "", line: Int = 1) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The names of the attributes, sorted, so that what is reported about them does not change
    /// from run to run.
    package var attributeNames: [String] {
        attributes.keys.sorted()
    }

    /// The value of the attribute with this name, if the element has it.
    package func attribute(_ name: String) -> String? {
        attributes[name]
    }

    /// The child elements with this name, in order.
    package func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }
}

/// One element of an XML document as ``XMLElementReader`` reads it: its name, its attributes in
/// the order written, its child elements, and its text (the text and CDATA sections directly
/// inside it, joined; comments and processing instructions are dropped).
///
/// ```swift
/// let root = try XMLElementReader.read(#"<dict><key>a</key><string>b &amp; c</string></dict>"#)
/// root.children.map(\.name)   // ["key", "string"]
/// root.children[1].text       // "b & c"
/// ```
package struct XMLElementNode: Sendable, Hashable {
    /// The element's name, with its prefix if it has one (`xsi:type`).
    package var name: String
    /// The attributes, in the order written, their values with references replaced.
    package var attributes: [(name: String, value: String)]
    /// The child elements, in order.
    package var children: [XMLElementNode]
    /// The text directly inside the element, references replaced and CDATA sections unwrapped.
    package var text: String
    /// The line of the element's `<`, from 1.
    package var line: Int
    /// The column of the element's `<`, from 1.
    package var column: Int

    /// Creates an element.
    package init(name: String, attributes: [(name: String, value: String)] = [], children: [XMLElementNode] = [], text: String = "", line: Int = 1, column: Int = 1) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.column = column
    }

    /// The value of the attribute with this name, if the element has it.
    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements with this name, in order.
    package func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }

    /// Whether two elements have the same name, attributes (in order), children, text and place.
    package static func == (lhs: XMLElementNode, rhs: XMLElementNode) -> Bool {
        lhs.name == rhs.name && lhs.attributes.elementsEqual(rhs.attributes) { $0.name == $1.name && $0.value == $1.value }
            && lhs.children == rhs.children && lhs.text == rhs.text && lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        for attribute in attributes {
            hasher.combine(attribute.name)
            hasher.combine(attribute.value)
        }
        hasher.combine(children)
        hasher.combine(text)
        hasher.combine(line)
        hasher.combine(column)
    }
}

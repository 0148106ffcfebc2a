/// A coding key for a field by name, to decode one field's value on its own (an aggregate).
struct NamedCodingKey: CodingKey {
    let stringValue: String
    init(_ name: String) { self.stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
    var intValue: Int? { nil }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A JSON object of a request being decoded, with its path in the body: typed accessors for its
/// members that throw CloudKit's `BAD_REQUEST` naming the member and the type expected, so that
/// no endpoint checks fields one by one.
///
/// - A required member that is absent or null: `query.recordType is missing (a string)`.
/// - A member of the wrong type: `resultsLimit is an integer, not a string`.
/// - An optional member is nil when absent or null.
///
/// ```swift
/// let object = try RequestObject(body, path: "")
/// let limit = try object.integer("resultsLimit")       // Int64?
/// let query: QueryDefinition = try object.decode("query")
/// ```
struct RequestObject {
    /// The object's members.
    let members: [String: JSONValue]
    /// Where the object is in the body (`""` for the body itself, `query.filterBy[0]`).
    let path: String

    /// The object at `path`; anything else is a `BAD_REQUEST`.
    init(_ value: JSONValue, path: String) throws(ServerError) {
        guard case .object(let members) = value else {
            throw ServerError(.badRequest, path.isEmpty ? "the request body is a JSON object, not \(value.kindName)" : "\(path) is an object, not \(value.kindName)")
        }
        self.members = members
        self.path = path
    }

    /// The path of a member (`query.recordType`).
    func path(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// A member as it was sent; nil when absent or null.
    subscript(key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    /// Whether the member is present and not null.
    func has(_ key: String) -> Bool {
        self[key] != nil
    }

    /// A required member: absent or null is a `BAD_REQUEST`.
    func required(_ key: String, _ expected: String) throws(ServerError) -> JSONValue {
        guard let value = self[key] else { throw ServerError(.badRequest, "\(path(key)) is missing (\(expected))") }
        return value
    }

    /// The error of a member that is not what it should be.
    func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> ServerError {
        ServerError(.badRequest, "\(path(key)) is \(expected), not \(value.kindName)")
    }

    // MARK: Scalars

    /// An optional string member.
    func string(_ key: String, _ expected: String = "a string") throws(ServerError) -> String? {
        guard let value = self[key] else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, expected, value) }
        return text
    }

    /// A required string member.
    func requiredString(_ key: String, _ expected: String = "a string") throws(ServerError) -> String {
        let value = try required(key, expected)
        guard let text = value.stringValue else { throw wrongType(key, expected, value) }
        return text
    }

    /// An optional boolean member.
    func bool(_ key: String) throws(ServerError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, "a boolean", value) }
        return flag
    }

    /// An optional integer member (a whole number, or one sent as a string by a
    /// `numbersAsStrings` client).
    func integer(_ key: String, _ expected: String = "an integer") throws(ServerError) -> Int64? {
        guard let value = self[key] else { return nil }
        guard let integer = value.integerValue else { throw wrongType(key, expected, value) }
        return integer
    }

    /// An optional number member.
    func number(_ key: String, _ expected: String = "a number") throws(ServerError) -> Double? {
        guard let value = self[key] else { return nil }
        guard let number = value.doubleValue else { throw wrongType(key, expected, value) }
        return number
    }

    // MARK: Containers

    /// An optional array member, each element as it was sent.
    func array(_ key: String, _ expected: String = "an array") throws(ServerError) -> [JSONValue]? {
        guard let value = self[key] else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(key, expected, value) }
        return elements
    }

    /// A required array member, of at most `maximumCount` elements when given.
    func requiredArray(_ key: String, _ expected: String = "an array", maximumCount: Int? = nil) throws(ServerError) -> [JSONValue] {
        let value = try required(key, expected)
        guard let elements = value.arrayValue else { throw wrongType(key, expected, value) }
        try checkCount(elements, key, maximumCount)
        return elements
    }

    /// Refuses an array longer than `maximumCount` (batches are at most 200).
    private func checkCount(_ elements: [JSONValue], _ key: String, _ maximumCount: Int?) throws(ServerError) {
        if let maximumCount, elements.count > maximumCount {
            throw ServerError(.badRequest, "\(path(key)) holds at most \(maximumCount) entries; this one has \(elements.count)")
        }
    }

    /// An optional array of strings (`desiredKeys`).
    func strings(_ key: String) throws(ServerError) -> [String]? {
        guard let elements = try array(key, "an array of strings") else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw ServerError(.badRequest, "\(path(key))[\(index)] is a string, not \(element.kindName)")
            }
            strings.append(text)
        }
        return strings
    }

    /// An optional object member, as an object to read.
    func object(_ key: String) throws(ServerError) -> RequestObject? {
        guard let value = self[key] else { return nil }
        return try RequestObject(value, path: path(key))
    }

    /// An optional member decoded as a request part.
    func decode<Part: RequestDecodable>(_ key: String, as type: Part.Type = Part.self) throws(ServerError) -> Part? {
        guard let object = try object(key) else { return nil }
        return try Part(object)
    }

    /// A required member decoded as a request part.
    func decodeRequired<Part: RequestDecodable>(_ key: String, as type: Part.Type = Part.self) throws(ServerError) -> Part {
        try Part(RequestObject(try required(key, "an object"), path: path(key)))
    }

    /// An optional array member, each element decoded as a request part (`operations[3]`).
    func decodeArray<Part: RequestDecodable>(_ key: String, as type: Part.Type = Part.self, maximumCount: Int? = nil) throws(ServerError) -> [Part]? {
        guard let elements = try array(key, "an array of objects") else { return nil }
        try checkCount(elements, key, maximumCount)
        return try Self.decode(elements, path: path(key))
    }

    /// A required array member, each element decoded as a request part.
    func decodeRequiredArray<Part: RequestDecodable>(_ key: String, as type: Part.Type = Part.self, maximumCount: Int? = nil) throws(ServerError) -> [Part] {
        try Self.decode(try requiredArray(key, "an array of objects", maximumCount: maximumCount), path: path(key))
    }

    private static func decode<Part: RequestDecodable>(_ elements: [JSONValue], path: String) throws(ServerError) -> [Part] {
        var parts: [Part] = []
        parts.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            parts.append(try Part(RequestObject(element, path: "\(path)[\(index)]")))
        }
        return parts
    }
}
#endif

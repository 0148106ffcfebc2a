// Part of the Server trait: without it, this module is empty.
#if Server
extension KeyedDecodingContainer {
    /// The path of a member, as errors name it (`query.filterBy[0].comparator`).
    func path(_ key: Key) -> String {
        (codingPath + [key]).jsonPath
    }

    /// A required member, its errors saying that it is `expected` (`an NSPredicate format string`).
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, expected: String) throws -> T {
        do {
            return try decode(type, forKey: key)
        } catch let error as DecodingError {
            throw error.expecting(expected, at: codingPath + [key])
        }
    }

    /// An optional member (nil when absent or null), its errors saying that it is `expected`.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key, expected: String) throws -> T? {
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch let error as DecodingError {
            throw error.expecting(expected, at: codingPath + [key])
        }
    }

    /// The error of a required member that is missing, which should have been `expected`.
    func missing(_ key: Key, expected: String) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing (\(expected))",
                                underlyingError: RequestMismatch(expected: expected, actual: nil)))
    }

    /// A required array of at most `maximumCount` elements (CloudKit's batches are at most 200),
    /// counted before its elements are decoded; `expected` words its errors when given.
    func decodeBatch<Element: Decodable>(_ type: [Element].Type, forKey key: Key, maximumCount: Int, expected: String? = nil) throws -> [Element] {
        var elements: any UnkeyedDecodingContainer
        do {
            elements = try nestedUnkeyedContainer(forKey: key)
        } catch let error as DecodingError {
            throw error.expecting(expected ?? [Element].expectation, at: codingPath + [key])
        }
        let count = elements.count ?? 0
        guard count <= maximumCount else {
            throw ServerError(.badRequest, "\(path(key)) holds at most \(maximumCount) entries; this one has \(count)")
        }
        var batch: [Element] = []
        batch.reserveCapacity(count)
        while !elements.isAtEnd { batch.append(try elements.decode(Element.self)) }
        return batch
    }
}
#endif

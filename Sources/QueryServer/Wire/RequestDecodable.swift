// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A request body, or a part of one, decoded from the ``JSONValue`` the package's one JSON reader
/// made of it: each endpoint's typed request (``RecordsQueryRequest``, ``RecordsModifyRequest``,
/// ...) and the objects inside them. Decoding reads members through ``RequestObject``, whose
/// typed accessors throw a `BAD_REQUEST` that names the member's path
/// (`query.filterBy[0].comparator`) and the type it should have.
///
/// ```swift
/// struct ZoneName: RequestDecodable {
///     let zoneName: String
///     init(_ object: RequestObject) throws(ServerError) { zoneName = try object.string("zoneName") }
/// }
/// ```
protocol RequestDecodable {
    /// Decodes the object; its members' paths start with the object's.
    init(_ object: RequestObject) throws(ServerError)
}

extension RequestDecodable {
    /// Decodes a whole request body (an object; its members' paths have no prefix).
    init(body: JSONValue) throws(ServerError) {
        try self.init(RequestObject(body, path: ""))
    }
}
#endif

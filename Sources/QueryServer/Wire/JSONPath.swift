// Part of the Server trait: without it, this module is empty.
#if Server
/// A coding key of a request's JSON: a member's name, an array's index, or a path spelled out
/// already (where a part of a request is decoded on its own, ``RequestBodyDecoder``).
///
/// ```swift
/// ([JSONKey(path: "query"), JSONKey(stringValue: "filterBy"), JSONKey(intValue: 0)] as [any CodingKey]).jsonPath   // "query.filterBy[0]"
/// ```
struct JSONKey: CodingKey {
    let stringValue: String
    /// The index, -1 for a name: three words, so that the key fits an existential's inline buffer
    /// (a coding path is an array of `any CodingKey`, and a request's path grows at every level).
    private let index: Int

    var intValue: Int? { index >= 0 ? index : nil }

    init(stringValue: String) {
        self.stringValue = stringValue
        index = -1
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        index = intValue
    }

    /// A path such as `operations[0].subscription`, written as it is at the start of a coding path.
    init(path: String) {
        self.init(stringValue: path)
    }
}

extension Array where Element == any CodingKey {
    /// The path as a request's errors name it: `query.filterBy[0].fieldValue`, empty for the body.
    var jsonPath: String {
        var path = ""
        for key in self {
            if let index = key.intValue {
                path += "["
                path += String(index)
                path += "]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }
}
#endif

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
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
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
                path += "[\(index)]"
            } else if path.isEmpty {
                path = key.stringValue
            } else {
                path += "." + key.stringValue
            }
        }
        return path
    }
}
#endif

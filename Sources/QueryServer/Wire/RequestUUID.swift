// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// A request's ID as CloudKit answers it (the `uuid` of an error answer): Hummingbird's request
/// ID (``RequestContext/id``, the `hb.request.id` of Hummingbird's own log lines), its
/// hexadecimal digits laid out as a UUID, so that an answer's `uuid` and every log line of its
/// request carry the same ID.
///
/// ```swift
/// RequestUUID.of(context)   // "3f2a9c01-0000-0000-7d41-00000000002a"
/// ```
enum RequestUUID {
    /// The ID of the request `context` belongs to, as a UUID.
    static func of(_ context: some RequestContext) -> String {
        format(context.id)
    }

    /// Up to 32 hexadecimal digits of `identifier` (zeros before, when fewer) as
    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower-case.
    static func format(_ identifier: String) -> String {
        let digits = Array(identifier.lowercased().filter(\.isHexDigit).suffix(32))
        let padded = Array(repeating: Character("0"), count: 32 - digits.count) + digits
        var text = ""
        for (index, digit) in padded.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(digit)
        }
        return text
    }
}
#endif

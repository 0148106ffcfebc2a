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
    /// Read as bytes (ASCII): every request's log lines carry it.
    static func format(_ identifier: String) -> String {
        var hexadecimal: [UInt8] = []
        hexadecimal.reserveCapacity(32)
        for byte in identifier.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): hexadecimal.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): hexadecimal.append(byte + 32)
            default: continue
            }
        }
        let digits = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 32 - hexadecimal.count)) + hexadecimal.suffix(32)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, digit) in digits.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            text.append(digit)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
#endif

import Foundation
import PredicateLanguage

/// Strings are stored in Unicode normalization form C, in every engine.
///
/// The evaluator's `==` on strings is canonical equivalence (Swift's `String ==`), while
/// SQL compares bytes; with every stored string in NFC and equality constants normalized
/// the same way, the two agree exactly, and indexes still serve equality.
package enum StringNormalization {
    /// The string in NFC (ASCII strings are returned as they are).
    package static func nfc(_ string: String) -> String {
        if string.utf8.allSatisfy({ $0 < 0x80 }) { return string }
        return string.precomposedStringWithCanonicalMapping
    }

    /// The value with every string (also inside lists) in NFC.
    package static func nfc(_ value: Value) -> Value {
        switch value {
        case .string(let string): .string(nfc(string))
        case .list(let members): .list(members.map(nfc))
        default: value
        }
    }
}

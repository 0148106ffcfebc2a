import Foundation
import PredicateLanguage

/// Values with their strings in Unicode normalization form C, for what the engines compute
/// from many records rather than return as stored: group keys and string minimums and maximums
/// of aggregates (SQL computes them on the NFC column, so every engine answers in NFC).
///
/// Stored strings keep the client's spelling; every comparison, sort and index works on the NFC
/// form (``TextFolding/normalized(_:)``), so canonically equivalent spellings are one string.
///
/// ```swift
/// StringNormalization.nfc(.list(["Sa\u{303}o"]))   // .list(["São"])
/// ```
package enum StringNormalization {
    /// The value with every string (also inside lists) in NFC.
    package static func nfc(_ value: Value) -> Value {
        switch value {
        case .string(let string): .string(TextFolding.normalized(string))
        case .list(let members): .list(members.map(nfc))
        default: value
        }
    }
}

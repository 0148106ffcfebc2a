import PredicateLanguage

/// The NUL character (U+0000) cannot be stored: SQLite's text binding (through GRDB) ends a
/// string at its first NUL, so `"a\0b"` would be stored as `"a"` and a lookup of
/// `"item000\0"` would find `"item000"`. Both engines therefore refuse NUL in stored strings,
/// record names and zone names, and treat identifiers holding one as absent.
///
/// ```swift
/// NulCharacter.isIn("a\u{0}b")                                 // true
/// RecordID(recordName: "item000\u{0}").canBeStored             // false
/// ```
package enum NulCharacter {
    /// Whether the text holds a NUL character.
    package static func isIn(_ text: String) -> Bool {
        text.utf8.contains(0)
    }

    /// Whether a value holds a NUL character in a string, list member or reference.
    package static func isIn(_ value: Value) -> Bool {
        switch value {
        case .string(let text): isIn(text)
        case .reference(let reference): isIn(reference.recordName) || isIn(reference.zoneName)
        case .list(let members): members.contains { isIn($0) }
        default: false
        }
    }
}

extension RecordID {
    /// Whether a record could be stored under this identifier: no NUL in its names.
    package var canBeStored: Bool {
        !NulCharacter.isIn(recordName) && !NulCharacter.isIn(zoneID.zoneName)
    }
}

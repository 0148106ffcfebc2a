/// A name compared and hashed by its UTF-8 bytes, as every engine stores names.
///
/// Record and zone names are identifiers, not text: `"Sa\u{0303}o"` (decomposed) and `"São"`
/// name two records in every engine's storage, where Swift's `String` equality would call them
/// one. ``RecordID`` and ``ZoneID`` compare and hash their names through this type, and a
/// lookup keyed by a record's name alone (a page's position in the memory engine's sorted
/// matches) uses it directly.
///
/// ```swift
/// NameBytes("São") == NameBytes("Sa\u{0303}o")   // false
/// ```
package struct NameBytes: Hashable, Sendable {
    /// The name.
    package let name: String

    /// The name's bytes as a key.
    package init(_ name: String) {
        self.name = name
    }

    /// Whether the two names are the same bytes.
    package static func == (left: NameBytes, right: NameBytes) -> Bool {
        left.name.utf8.elementsEqual(right.name.utf8)
    }

    /// Hashes the bytes, as ``==(_:_:)`` compares them.
    package func hash(into hasher: inout Hasher) {
        name.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            ?? hasher.combine(Array(name.utf8))
        hasher.combine(name.utf8.count)
    }
}

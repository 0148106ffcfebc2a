// Checks whether the folded forms `[c]` and `[cd]` keep equality and prefixes, the properties a
// plan would need to serve exact or `[c]` comparisons from a folded index (issue #29, stop 37).
// It folds as TextFolding's non-ASCII path does (Foundation's folding, then NFC).
//
//     swiftc -O Scripts/fold-properties.swift -o /tmp/fold-properties && /tmp/fold-properties
//
// Found with the toolchain of November 2026 (about 90 s):
// - P1, `[c]`-equal implies `[cd]`-equal: fails on 64 single scalars (U+1F80: `[cd]` gives "α",
//   `[cd]` of its `[c]` form gives "αι") and 2,914 pairs (U+0345 after anything).
// - P2, an exact prefix of the stored NFC string is a prefix under `[cd]`: fails on 1,232 pairs
//   (U+0610 then U+20DD).
// - P2c, the same under `[c]`: fails on 243 pairs ("H" then U+0331 folds to U+1E96).
// So each of the plain, `[c]` and `[cd]` indexes serves its own prefix tests; none can stand in
// for another.
import Foundation

func fold(_ string: String, _ options: String.CompareOptions) -> String {
    string.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
}

let caseInsensitive: String.CompareOptions = [.caseInsensitive]
let caseAndDiacriticInsensitive: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]

func hex(_ scalar: Unicode.Scalar) -> String { String(scalar.value, radix: 16, uppercase: true) }

var scalars: [Unicode.Scalar] = []
for value in 0x20...0x2FFFF {
    guard let scalar = Unicode.Scalar(value) else { continue }
    switch scalar.properties.generalCategory {
    case .unassigned, .surrogate, .privateUse: continue
    default: scalars.append(scalar)
    }
}

var singleFailures = 0
for scalar in scalars {
    let text = String(Character(scalar))
    if fold(text, caseAndDiacriticInsensitive) != fold(fold(text, caseInsensitive), caseAndDiacriticInsensitive) { singleFailures += 1 }
}
print("P1 on \(scalars.count) single scalars: \(singleFailures) failures")

// Pairs of scripts and marks where folding and composition interact.
let ranges: [ClosedRange<UInt32>] = [
    0x20...0x24F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF, 0x600...0x65F, 0x1100...0x11FF, 0x1AB0...0x1AFF,
    0x1DC0...0x1DFF, 0x1E00...0x1EFF, 0x20D0...0x20FF, 0x3040...0x30FF, 0xAC00...0xAC20, 0xFB00...0xFB06,
]
let sample = scalars.filter { scalar in ranges.contains { $0.contains(scalar.value) } }
var failures = (p1: 0, p2: 0, p2c: 0)
var examples: [String] = []
for first in sample {
    for second in sample {
        var view = String.UnicodeScalarView()
        view.append(first)
        view.append(second)
        let stored = String(view).precomposedStringWithCanonicalMapping
        let prefix = String(Character(first)).precomposedStringWithCanonicalMapping
        if fold(stored, caseAndDiacriticInsensitive) != fold(fold(stored, caseInsensitive), caseAndDiacriticInsensitive) { failures.p1 += 1 }
        guard stored.utf8.starts(with: prefix.utf8) else { continue }
        if !fold(stored, caseAndDiacriticInsensitive).utf8.starts(with: fold(prefix, caseAndDiacriticInsensitive).utf8) {
            failures.p2 += 1
            if examples.count < 3 { examples.append("P2: U+\(hex(first)) U+\(hex(second))") }
        }
        if !fold(stored, caseInsensitive).utf8.starts(with: fold(prefix, caseInsensitive).utf8) {
            failures.p2c += 1
            if examples.count < 6 { examples.append("P2c: U+\(hex(first)) U+\(hex(second))") }
        }
    }
}
print("pairs of \(sample.count) scalars: P1 \(failures.p1), P2 \(failures.p2), P2c \(failures.p2c) failures")
print(examples.joined(separator: "\n"))

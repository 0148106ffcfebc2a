/// The substring tests of `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `IN`, on
/// UTF-8 code units (so on Unicode code points), after folding.
///
/// An empty needle matches nothing, as in `NSString`'s `rangeOfString:`
/// (`"abc" BEGINSWITH ""` is false).
enum StringMatching {
    /// Whether `string` starts with `prefix` (code units; empty prefix: false).
    static func hasPrefix(_ string: String, _ prefix: String) -> Bool {
        let needle = prefix.utf8
        let haystack = string.utf8
        if needle.isEmpty || needle.count > haystack.count { return false }
        return haystack.starts(with: needle)
    }

    /// Whether `string` ends with `suffix` (code units; empty suffix: false).
    static func hasSuffix(_ string: String, _ suffix: String) -> Bool {
        let needle = suffix.utf8
        let haystack = string.utf8
        if needle.isEmpty || needle.count > haystack.count { return false }
        return haystack.reversed().starts(with: needle.reversed())
    }

    /// Whether `string` contains `needle` (code units; empty needle: false).
    static func contains(_ string: String, _ needle: String) -> Bool {
        if needle.utf8.isEmpty || needle.utf8.count > string.utf8.count { return false }
        var haystack = string
        var pattern = needle
        return haystack.withUTF8 { haystackBytes in
            pattern.withUTF8 { needleBytes in
                contains(haystackBytes, needleBytes)
            }
        }
    }

    /// Byte substring search.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0, count <= haystack.count else { return false }
        let first = needle[0]
        var start = 0
        let lastStart = haystack.count - count
        while start <= lastStart {
            if haystack[start] == first {
                var offset = 1
                while offset < count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == count { return true }
            }
            start += 1
        }
        return false
    }

    // MARK: - Fast paths for a folded ASCII constant

    /// Outcome of a fast-path test: decided, or the value needs full folding.
    enum FastResult {
        case matched
        case failed
        case undecided
    }

    /// Compares `value`, folded with `lowercase` case folding, to an ASCII constant
    /// that is already folded; undecided when a non-ASCII byte is met.
    @inline(__always)
    static func asciiFoldedEquals(_ value: String, _ folded: String, lowercase: Bool) -> FastResult {
        var valueBytes = value.utf8.makeIterator()
        var foldedBytes = folded.utf8.makeIterator()
        var result = FastResult.matched
        while true {
            let valueByte = valueBytes.next()
            let foldedByte = foldedBytes.next()
            guard let valueByte else {
                return foldedByte == nil ? result : .failed
            }
            if valueByte >= 0x80 { return .undecided }
            guard let foldedByte else {
                // The value is longer; it fails unless a later non-ASCII byte makes it undecided.
                result = .failed
                continue
            }
            let lowered = lowercase ? TextFolding.lowercaseASCII(valueByte) : valueByte
            if lowered != foldedByte { result = .failed }
        }
    }

    /// Whether `value`, folded, starts with the folded ASCII constant; undecided when a
    /// non-ASCII byte appears in the first `count + 1` bytes of the value.
    @inline(__always)
    static func asciiFoldedHasPrefix(_ value: String, _ folded: String, lowercase: Bool) -> FastResult {
        var valueBytes = value.utf8.makeIterator()
        var result = FastResult.matched
        for foldedByte in folded.utf8 {
            guard let valueByte = valueBytes.next() else { return .failed }
            if valueByte >= 0x80 { return .undecided }
            let lowered = lowercase ? TextFolding.lowercaseASCII(valueByte) : valueByte
            if lowered != foldedByte { result = .failed }
        }
        if let next = valueBytes.next(), next >= 0x80 { return .undecided }
        return result
    }
}

/// The existing names closest to a name that was not found, for "did you mean" in errors.
///
/// Closeness is the Damerau–Levenshtein edit distance (insertions, deletions, substitutions of
/// characters and swaps of neighbours, as in `nmae` for `name`) with case ignored, so a name that differs only in case is the closest of all. A name is suggested when
/// its distance is at most a third of the unknown name's length (at least 1, at most 3); at most
/// three are suggested, the closest first, ties in alphabetical order.
///
/// ```swift
/// NameSuggestions.closest(to: "Cty", among: ["City", "Airport"])            // ["City"]
/// NameSuggestions.closest(to: "populaton", among: ["population", "name"])   // ["population"]
/// NameSuggestions.closest(to: "nmae", among: ["name", "country"])           // ["name"]
/// ```
package enum NameSuggestions {
    /// The most names suggested.
    package static let limit = 3

    /// The names of `candidates` close enough to `name`, closest first.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> [String] {
        let target = Array(name.lowercased())
        let allowed = min(3, max(1, target.count / 3))
        var scored: [(distance: Int, name: String)] = []
        for candidate in candidates where candidate != name {
            let distance = editDistance(target, Array(candidate.lowercased()), atMost: allowed)
            if distance <= allowed { scored.append((distance, candidate)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(limit).map(\.name)
    }

    /// "; did you mean 'A'?", "; did you mean 'A' or 'B'?", or "" without suggestions.
    package static func didYouMean(_ suggestions: [String]) -> String {
        guard let last = suggestions.last else { return "" }
        let quoted = suggestions.dropLast().map { "'\($0)'" }
        return "; did you mean " + (quoted.isEmpty ? "'\(last)'" : quoted.joined(separator: ", ") + " or '\(last)'") + "?"
    }

    /// The Damerau–Levenshtein distance of two strings (optimal string alignment: insertions,
    /// deletions, substitutions, and swaps of neighbours, each one edit, so `nmae` is one edit from
    /// `name`), or `limit + 1` as soon as it must exceed `limit`.
    package static func editDistance(_ left: [Character], _ right: [Character], atMost limit: Int) -> Int {
        if abs(left.count - right.count) > limit { return limit + 1 }
        var beforePrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for (leftIndex, leftCharacter) in left.enumerated() {
            current[0] = leftIndex + 1
            var rowMinimum = current[0]
            for (rightIndex, rightCharacter) in right.enumerated() {
                let substitution = previous[rightIndex] + (leftCharacter == rightCharacter ? 0 : 1)
                var distance = min(substitution, previous[rightIndex + 1] + 1, current[rightIndex] + 1)
                if leftIndex > 0, rightIndex > 0, leftCharacter == right[rightIndex - 1], left[leftIndex - 1] == rightCharacter {
                    distance = min(distance, beforePrevious[rightIndex - 1] + 1)
                }
                current[rightIndex + 1] = distance
                rowMinimum = min(rowMinimum, distance)
            }
            // A swap reaches back two rows, but never below the row between: stopping here stays exact.
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[right.count]
    }
}

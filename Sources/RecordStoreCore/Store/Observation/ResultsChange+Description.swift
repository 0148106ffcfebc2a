extension ResultsDifference: CustomStringConvertible {
    /// The difference as positions: what was deleted (old positions), inserted (new positions),
    /// moved and updated (old → new), or `no change`.
    ///
    /// ```swift
    /// print(change.difference)   // deleted [2], inserted [0, 3], moved [1 → 4]
    /// ```
    public var description: String {
        var parts: [String] = []
        if !deletions.isEmpty { parts.append("deleted \(deletions)") }
        if !insertions.isEmpty { parts.append("inserted \(insertions)") }
        if !moves.isEmpty { parts.append("moved [" + moves.map { "\($0.from) → \($0.to)" }.joined(separator: ", ") + "]") }
        if !updates.isEmpty {
            // An update that stayed in place prints its one position.
            parts.append("updated [" + updates.map { $0.from == $0.to ? "\($0.to)" : "\($0.from) → \($0.to)" }.joined(separator: ", ") + "]")
        }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}

extension ResultsChange: CustomStringConvertible {
    /// Why the element came, how many records the results hold, and how they changed.
    ///
    /// ```swift
    /// print(change)   // changed: 4 records; inserted [0], updated [2]
    /// ```
    public var description: String {
        let count = records.count == 1 ? "1 record" : "\(records.count) records"
        return switch kind {
        case .initial: "initial: \(count)"
        case .changed: "changed: \(count); \(difference)"
        case .reset: "reset: \(count); \(difference)"
        }
    }
}

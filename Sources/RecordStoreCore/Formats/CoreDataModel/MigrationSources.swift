/// Which stored name each name of a new model version takes its data from, as Core Data's
/// lightweight migration maps entities and properties: the stored name its
/// `renamingIdentifier` gives, when one is stored; otherwise its own name, when stored. So
/// renames may chain (`b` renamed from `a` while `c` is renamed from `b`) or swap.
///
/// ```swift
/// let match = MigrationSources.match(["b", "c"], stored: ["a", "b"]) { ["b": "a", "c": "b"][$0] }
/// match.sources     // ["b": "a", "c": "b"]
/// match.takenTwice  // []
/// ```
struct MigrationSources {
    /// Each new name that takes a stored one: the stored name.
    var sources: [String: String] = [:]
    /// The stored names two or more new names would take (one by its renaming identifier,
    /// another by its own name), with those new names, in the order given: a refusal.
    var takenTwice: [(source: String, targets: [String])] = []

    /// Matches `names` (the new version's, in order) with the `stored` ones.
    static func match(_ names: [String], stored: Set<String>, renamingIdentifier: (String) -> String?) -> MigrationSources {
        var claims: [String: [String]] = [:]
        var order: [String] = []
        for name in names {
            let source: String
            if let renamed = renamingIdentifier(name), renamed != name, stored.contains(renamed) {
                source = renamed
            } else if stored.contains(name) {
                source = name
            } else {
                continue
            }
            if claims[source] == nil { order.append(source) }
            claims[source, default: []].append(name)
        }
        var match = MigrationSources()
        for source in order {
            guard let targets = claims[source] else { continue }
            if targets.count == 1 {
                match.sources[targets[0]] = source
            } else {
                match.takenTwice.append((source, targets))
            }
        }
        return match
    }
}

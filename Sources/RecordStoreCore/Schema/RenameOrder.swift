/// The order in which a set of renames runs one at a time, each onto a free name: a chain
/// (`a` → `b` while `b` → `c`) renames its last link first, and a cycle (`a` ↔ `b`) moves one
/// name aside to a temporary name first. A schema migration renames fields and record types
/// this way, as Core Data's lightweight migration maps each `renamingIdentifier` at once.
///
/// ```swift
/// RenameOrder.steps(["a": "b", "b": "c"], inUse: ["a", "b"])
/// // [("b", "c"), ("a", "b")]
/// RenameOrder.steps(["a": "b", "b": "a"], inUse: ["a", "b"])
/// // [("a", "$renaming$a"), ("b", "a"), ("$renaming$a", "b")]
/// ```
@_spi(StorageEngine) public enum RenameOrder {
    /// The renames as steps, in an order where each step's new name is free when it runs.
    /// `inUse` holds the names taken before the first step (the sources among them). A rename
    /// onto a name that stays taken (neither renamed nor freed) comes last, as given: the
    /// planner refuses such a migration before it reaches an engine.
    @_spi(StorageEngine) public static func steps(_ renames: [String: String], inUse: Set<String>) -> [(from: String, to: String)] {
        var pending = renames.filter { $0.key != $0.value }
        var taken = inUse
        var steps: [(from: String, to: String)] = []
        func run(_ from: String, _ to: String) {
            steps.append((from, to))
            taken.remove(from)
            taken.insert(to)
            pending[from] = nil
        }
        while !pending.isEmpty {
            let ordered = pending.sorted { $0.key < $1.key }
            if let free = ordered.first(where: { !taken.contains($0.value) }) {
                run(free.key, free.value)
            } else if let link = ordered.first(where: { pending[$0.value] != nil }) {
                // Every new name is taken by a name still to be renamed: a cycle.
                var aside = "$renaming$" + link.key
                while taken.contains(aside) || pending[aside] != nil { aside += "$" }
                run(link.key, aside)
                pending[aside] = link.value
            } else {
                for (from, to) in ordered { run(from, to) }
            }
        }
        return steps
    }
}

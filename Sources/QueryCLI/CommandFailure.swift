/// An error a command reports to the user: printed as `error: <message>` on
/// standard error, with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, said for a person.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Query {
    /// The synchronous form of an operation (``ModelContext``'s `synchronously`).
    func synchronously<Result>(_ operation: () async throws -> Result) throws -> Result {
        try context.synchronously(operation)
    }
}

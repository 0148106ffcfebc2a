extension ModifyResult: CustomStringConvertible {
    /// What was saved and deleted, by record name in order, then each failure with its reason.
    ///
    /// ```swift
    /// print(result)   // saved [lyon, paris]; deleted [nice]; failed: marseille: Record 'marseille' ...
    /// ```
    public var description: String {
        var saved: [String] = [], deleted: [String] = [], failed: [(String, String)] = []
        for (id, result) in saveResults {
            switch result {
            case .success: saved.append(id.recordName)
            case .failure(let error): failed.append((id.recordName, error.description))
            }
        }
        for (id, result) in deleteResults {
            switch result {
            case .success: deleted.append(id.recordName)
            case .failure(let error): failed.append((id.recordName, error.description))
            }
        }
        var parts: [String] = []
        if !saved.isEmpty { parts.append("saved [" + saved.sorted().joined(separator: ", ") + "]") }
        if !deleted.isEmpty { parts.append("deleted [" + deleted.sorted().joined(separator: ", ") + "]") }
        if !failed.isEmpty {
            parts.append("failed: " + failed.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }.joined(separator: "; "))
        }
        return parts.isEmpty ? "nothing saved or deleted" : parts.joined(separator: "; ")
    }
}

import Foundation
import QueryBuilder
import RecordStore
import Testing

/// The two engines every behaviour runs on.
enum EngineKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqlite

    var testDescription: String { rawValue }

    /// A new, empty store of this kind (SQLite in a fresh temporary file).
    func makeStore() throws -> Store {
        switch self {
        case .memory:
            return Store.inMemory()
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("query-builder-\(UUID().uuidString).sqlite").path
            return try Store.open(path: path)
        }
    }

    /// A context over a new store holding the fixture items (saved).
    func seededContext() throws -> ModelContext {
        let context = ModelContext(store: try makeStore())
        for item in fixtureItems { try context.insert(item) }
        try context.save()
        return context
    }
}

extension Array where Element: Identifiable {
    /// The ids, in order.
    var ids: [Element.ID] { map(\.id) }
}

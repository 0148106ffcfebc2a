import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The functions and collations every connection of a SQLite store registers.
enum SQLiteFunctions {
    /// Starts the SQLite error message of an evaluation error in `query_test`; the engine
    /// turns such an error back into `RecordStoreError.predicate(.evaluation(message))`.
    static let evaluationErrorMarker = "query_test evaluation failed: "

    /// The evaluation error a SQLite error carries from `query_test`, or nil.
    ///
    /// ```swift
    /// SQLiteFunctions.evaluationError(in: error)   // .evaluation("regular expression ... took longer than ...")
    /// ```
    static func evaluationError(in error: DatabaseError) -> FormatPredicateError? {
        guard let message = error.message, message.hasPrefix(evaluationErrorMarker) else { return nil }
        return .evaluation(String(message.dropFirst(evaluationErrorMarker.count)))
    }

    /// Registers `query_test` (``SQLiteComparisonTest``), `query_refuse`, `query_distance`,
    /// the two functions of a batch update (``SQLiteBatchUpdate``) and the `query_*` sort collations.
    static func register(in db: Database, registry: ComparisonTestRegistry) throws {
        try SQLiteComparisonTest.register(in: db, registry: registry)
        // A walk refused while the statement runs (``RelationshipWalkRefusal``): its message, and the value it depends on.
        db.add(function: DatabaseFunction("query_refuse", argumentCount: 2, pure: false) { arguments in
            let message = String.fromDatabaseValue(arguments[0]) ?? RelationshipWalkRefusal.marker
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: message + " " + arguments[1].description)
        })
        db.add(function: DatabaseFunction("query_distance", argumentCount: 4, pure: true) { arguments in
            guard let latitude = Double.fromDatabaseValue(arguments[0]),
                  let longitude = Double.fromDatabaseValue(arguments[1]),
                  let originLatitude = Double.fromDatabaseValue(arguments[2]),
                  let originLongitude = Double.fromDatabaseValue(arguments[3]) else { return nil }
            return Location(latitude: latitude, longitude: longitude)
                .distance(to: Location(latitude: originLatitude, longitude: originLongitude))
        })
        registerBatchUpdateFunctions(in: db)
        for comparison in SortComparison.allCases {
            guard let name = comparison.collationName else { continue }
            db.add(collation: DatabaseCollation(name) { lhs, rhs in comparison.compare(lhs, rhs) })
        }
    }

    /// What a batch update computes row by row in its statements, as a save computes it for each
    /// record:
    /// - `query_next_change_tag(previous)`: a new change tag, never the previous one
    ///   (``ChangeTagGenerator``, the save's own);
    /// - `query_full_text_document(text, …)`: the full-text document of a row's searchable
    ///   strings, in order (``SQLiteFullTextDocument``, as the writer builds it); NULL when it
    ///   has no token. Arguments that are not text are skipped, as a record's non-string values are.
    private static func registerBatchUpdateFunctions(in db: Database) {
        let tags = LockedState(ChangeTagGenerator())
        db.add(function: DatabaseFunction("query_next_change_tag", argumentCount: 1, pure: false) { arguments in
            let previous = String.fromDatabaseValue(arguments[0])
            return tags.withLock { $0.next(different: previous) }
        })
        db.add(function: DatabaseFunction("query_full_text_document", argumentCount: nil, pure: true) { arguments in
            var document = SQLiteFullTextDocument()
            for argument in arguments {
                if let text = String.fromDatabaseValue(argument) { document.append(text) }
            }
            return document.text
        })
    }
}

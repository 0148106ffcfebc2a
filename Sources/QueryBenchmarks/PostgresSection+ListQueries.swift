// Part of the PostgreSQL trait.
#if PostgreSQL
import Foundation
import PostgresNIO
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreSQL

/// `ANY` tests over a list on PostgreSQL, against hand-written SQL on the same tables.
extension PostgresSection {
    /// ``StoreSection/listQueries`` on the store imported with `--indexes all` (`alternatenames`
    /// `QUERYABLE`: its members are in `City$list$alternatenames`, indexed), against hand-written
    /// SQL through the same list table's indexes. Target: within 1.25x.
    func measureListQueries(_ report: BenchmarkReport, store: Store, hand: HandClient) async throws {
        report.note("ANY over a list: on the store imported with --indexes all (alternatenames QUERYABLE)")
        for query in StoreSection.listQueries {
            let test = query.upper == nil ? #""\#(query.column)" = $2"# : #""\#(query.column)" >= $2 AND "\#(query.column)" < $3"#
            try await measure(report, store: store, hand: hand, name: query.name,
                              predicate: FormatPredicate(format: query.format, query.argument), sorts: [], limit: nil,
                              sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND "$row" IN (SELECT record FROM "City$list$alternatenames" WHERE \#(test)) ORDER BY "$recordName""#,
                              arguments: [SQLValue.text(StoreSection.defaultZoneKey), .text(query.lower)] + (query.upper.map { [SQLValue.text($0)] } ?? []))
        }
    }
}
#endif

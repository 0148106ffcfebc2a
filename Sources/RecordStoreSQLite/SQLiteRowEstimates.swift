import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The rows SQLite's planner expects each step of `EXPLAIN QUERY PLAN` to visit, from the
/// statistics `ANALYZE` keeps in `sqlite_stat1` (the store runs it after imports and when it
/// opens). SQLite does not print its estimates, so they are worked out as its planner does
/// without `sqlite_stat4`: a table scan visits every row; an index search with k equality
/// terms visits the index's k-th average (`stat` column), and each range bound (`>`, `<`)
/// divides by four. Steps with no such estimate (sorting, virtual tables) have none.
///
/// ```swift
/// let estimates = try SQLiteRowEstimates(db)
/// estimates.rows(for: "SEARCH t USING INDEX City$countrycode$index ($zone=? AND countrycode=?)",
///                tables: ["t": "City"])   // 284
/// ```
struct SQLiteRowEstimates {
    /// Each index's `stat` numbers: rows of the table, then average rows per equal prefix.
    private var indexStatistics: [String: [Int]] = [:]
    /// Each table's row count.
    private var tableRows: [String: Int] = [:]

    /// Reads `sqlite_stat1` (none when the store was never analyzed: no estimates then).
    init(_ db: Database) throws {
        guard try db.tableExists("sqlite_stat1") else { return }
        for row in try Row.fetchAll(db, sql: "SELECT tbl, idx, stat FROM sqlite_stat1") {
            guard let table: String = row["tbl"], let stat: String = row["stat"] else { continue }
            let numbers = stat.split(separator: " ").compactMap { Int($0) }
            guard let rows = numbers.first else { continue }
            tableRows[table] = rows
            if let index: String = row["idx"] { indexStatistics[index] = numbers }
        }
    }

    /// The tables of a statement by their aliases (`FROM "City" AS t`), and by their own names.
    static func tableAliases(in sql: String) -> [String: String] {
        var aliases: [String: String] = [:]
        let scalars = Array(sql.utf8)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == UInt8(ascii: "\"") else { index += 1; continue }
            // A quoted identifier ("" is a quote inside it).
            var name: [UInt8] = []
            var cursor = index + 1
            while cursor < scalars.count {
                if scalars[cursor] == UInt8(ascii: "\"") {
                    if cursor + 1 < scalars.count, scalars[cursor + 1] == UInt8(ascii: "\"") {
                        name.append(UInt8(ascii: "\""))
                        cursor += 2
                        continue
                    }
                    break
                }
                name.append(scalars[cursor])
                cursor += 1
            }
            let table = String(decoding: name, as: UTF8.self)
            let rest = scalars[min(cursor + 1, scalars.count)...]
            if rest.starts(with: Array(" AS ".utf8)) {
                let alias = rest.dropFirst(4).prefix { $0 == UInt8(ascii: "_") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
                if !alias.isEmpty { aliases[String(decoding: alias, as: UTF8.self)] = table }
            }
            aliases[table] = aliases[table] ?? table
            index = cursor + 1
        }
        return aliases
    }

    /// The rows a step of the plan is expected to visit, or nil when it has no estimate.
    func rows(for detail: String, tables: [String: String]) -> Int? {
        let words = detail.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, words[0] == "SCAN" || words[0] == "SEARCH" else { return nil }
        if detail.contains("VIRTUAL TABLE") { return nil }
        if detail.contains("USING INTEGER PRIMARY KEY (rowid=?)") { return 1 }
        let table = tables[String(words[1])] ?? String(words[1])
        guard let marker = detail.range(of: "INDEX ") else {
            return words[0] == "SCAN" ? tableRows[table] : nil
        }
        let indexName = String(detail[marker.upperBound...].prefix { $0 != " " })
        guard let statistics = indexStatistics[indexName], let total = statistics.first else { return tableRows[table] }
        guard let open = detail.range(of: " ("), detail.hasSuffix(")") else { return total }
        let terms = detail[open.upperBound..<detail.index(before: detail.endIndex)].components(separatedBy: " AND ")
        let equalities = terms.filter { $0.hasSuffix("=?") && !$0.hasSuffix(">=?") && !$0.hasSuffix("<=?") }.count
        let bounds = terms.filter { $0.contains(">") || $0.contains("<") }.count
        var estimate = Double(equalities < statistics.count ? statistics[equalities] : statistics.last ?? total)
        for _ in 0..<bounds { estimate /= 4 }
        return max(1, Int(estimate.rounded()))
    }
}

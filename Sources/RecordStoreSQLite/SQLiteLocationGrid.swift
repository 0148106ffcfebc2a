@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A queryable location field's spatial index on SQLite: a B-tree over the row's half-degree
/// band of latitude, its longitude and its latitude,
///
///     CREATE INDEX "City$location$index" ON "City"
///         (CAST(("location$latitude" + 90) * 2 AS INTEGER), "location$longitude", "location$latitude")
///
/// A box of latitudes and longitudes is then one seek per band it crosses, each reading the
/// band's entries in the box's longitudes; the latitudes are checked in the index too, so only
/// rows in the box are read. A radius of 50 km crosses two or three bands. The search is a
/// subquery of row numbers, `t.rowid IN (SELECT rowid FROM "City" WHERE …)`, as the R*Tree's
/// was: SQLite then starts from the box whatever its statistics say (a fresh store has none,
/// and would otherwise walk the record-name index to spare the sort). The zone is not in the
/// index: the outer query checks it on the few rows in the box.
///
/// It replaces an R*Tree table (the layout before version 5): it answers the same boxes as fast
/// (the store section of `query-bench` measures both), while an R*Tree insert costs about 7 µs
/// a row, a third of a bulk load's time, and cannot be built in one sorted pass at the end of
/// a load as a B-tree is (``SQLiteDeferredIndexes``). It is also smaller (5 MB against 9 MB for
/// cities1000) and is kept in step with the row by SQLite itself.
///
/// Invalid locations (a latitude beyond ±90 or a longitude beyond ±180) have a band or a
/// longitude outside any box, so, as in the R*Tree that left them out, no indexed radius search
/// finds them.
///
/// ```swift
/// let sql = SQLiteLocationGrid.createIndexSQL(recordType: "City", field: "location")
/// SQLiteLocationGrid.band(ofLatitude: 48.8566)   // 277
/// ```
enum SQLiteLocationGrid {
    /// The bands in a degree of latitude.
    static let bandsPerDegree = 2

    /// The band of a latitude, as the index's expression computes it: SQLite's `CAST` truncates
    /// toward zero, as `Int64(_:)` does, and the value is never negative for a valid latitude.
    static func band(ofLatitude latitude: Double) -> Int64 {
        Int64((latitude + 90) * Double(bandsPerDegree))
    }

    /// The band expression over a latitude column (quoted, with its table's alias when a query
    /// names one): the index's expression, which a query must repeat word for word to seek it.
    static func bandExpression(latitude: String) -> String {
        "CAST((\(latitude) + 90) * \(bandsPerDegree) AS INTEGER)"
    }

    /// The statement that creates a location field's index.
    static func createIndexSQL(recordType: String, field: String) -> String {
        let quote = SQLiteDialect.quote
        let latitude = quote(TableLayout.latitudeColumn(field))
        return """
            CREATE INDEX IF NOT EXISTS \(quote(TableLayout.fieldIndex(recordType, field: field)))
            ON \(quote(TableLayout.recordTable(recordType))) (\(bandExpression(latitude: latitude)), \(quote(TableLayout.longitudeColumn(field))), \(latitude))
            """
    }

    /// The rows of the table aliased `alias` whose location lies in a box (bounds included): in
    /// each band the box's latitudes cross, the box's longitudes, then its latitudes. The
    /// condition selects exactly the box; the caller checks the distance.
    static func boxCondition(
        recordType: String, field: String, alias: String, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
    ) -> SQLCondition {
        let quote = SQLiteDialect.quote
        let latitude = quote(TableLayout.latitudeColumn(field))
        let bands = band(ofLatitude: latitudes.lowerBound)...band(ofLatitude: latitudes.upperBound)
        let placeholders = Array(repeating: "?", count: bands.count).joined(separator: ", ")
        return .superset(
            "\(alias).rowid IN (SELECT rowid FROM \(quote(TableLayout.recordTable(recordType))) WHERE \(bandExpression(latitude: latitude)) IN (\(placeholders)) "
                + "AND \(quote(TableLayout.longitudeColumn(field))) BETWEEN ? AND ? AND \(latitude) BETWEEN ? AND ?)",
            bands.map { .integer($0) }
                + [.real(longitudes.lowerBound), .real(longitudes.upperBound), .real(latitudes.lowerBound), .real(latitudes.upperBound)])
    }

    /// The R*Tree table a location field had before layout 5, which the migration drops.
    static func formerRTreeTable(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$rtree" }
}

// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The end of a save that takes its change position last (``PostgresWriteTransaction``), in one
/// statement: it takes the commit's change position (its transaction's ID plus the store's
/// base, ``PostgresChangePositions``: no lock), gives it to the records the save created and
/// updated, to the tombstones of the records it deleted and to the zones it touched (unless a
/// zone holds a greater one), removes the tombstones of the records it created again, and
/// sends the commit's notification when anybody listens for a zone it changed
/// (``PostgresChangeNotifications``): the same work as
/// `SQLExecutor.recordHistory(_:at:date:on:)` and a notification, in one round trip rather
/// than five.
///
/// ```swift
/// let (position, sequence) = try await PostgresCommitStatement(changes, date: Date(), channel: channel).run(on: connection)
/// ```
struct PostgresCommitStatement {
    let statement: SQLStatement

    init(_ changes: CommittedChanges, date: Date, channel: String) {
        func quote(_ name: String) -> String { PostgresDialect.quote(name) }
        let positioned = changes.entries.filter { $0.kind != .deleted }.map(\.recordID)
        let created = changes.entries.filter { $0.kind == .created }.map(\.recordID)
        let deleted = changes.entries.filter { $0.kind == .deleted }
        let zones = Set(changes.entries.map(\.recordID.zoneID.zoneName)).sorted()
        let sql = """
            WITH taken AS (SELECT \(PostgresChangePositions.positionExpression) AS position),
            positioned AS (UPDATE \(quote(TableLayout.registryTable)) AS r SET position = taken.position
                FROM taken, unnest($1::text[], $2::text[]) AS p(zone, name) WHERE r.zone = p.zone AND r.recordName = p.name),
            revived AS (DELETE FROM \(quote(TableLayout.tombstonesTable)) AS t
                USING unnest($3::text[], $4::text[]) AS c(zone, name) WHERE t.zone = c.zone AND t.recordName = c.name),
            buried AS (INSERT INTO \(quote(TableLayout.tombstonesTable)) (zone, recordName, recordType, position, deletedAt)
                SELECT d.zone, d.name, d.type, taken.position, $5 FROM taken, unnest($6::text[], $7::text[], $8::text[]) AS d(zone, name, type)
                ON CONFLICT (zone, recordName) DO UPDATE SET recordType = excluded.recordType, position = excluded.position, deletedAt = excluded.deletedAt),
            touched AS (UPDATE \(quote(TableLayout.zonesTable)) AS z SET position = greatest(z.position, taken.position) FROM taken WHERE z.name = ANY($9::text[]))
            SELECT taken.position, txid_current(), CASE WHEN \(PostgresChangeNotifications.anybodyListens(zones: "$12")) THEN pg_notify($10, txid_current()::text || ' ' || $11) END FROM taken
            """
        let payload = PostgresChangeNotifications.payload(changes)
        statement = SQLStatement(sql: sql, arguments: PostgresRecordWriter.identifierArrays(positioned) + PostgresRecordWriter.identifierArrays(created) + [
            .real(date.timeIntervalSinceReferenceDate),
            .text(PostgresDialect.arrayLiteral(deleted.map { TableLayout.zoneKey($0.recordID.zoneID) })),
            .text(PostgresDialect.arrayLiteral(deleted.map(\.recordID.recordName))),
            .text(PostgresDialect.arrayLiteral(deleted.map(\.recordType))),
            .text(PostgresDialect.arrayLiteral(zones)),
            .text(channel), .text(payload), PostgresChangeNotifications.changedZones(changes),
        ])
    }

    /// Runs the statement in the save's transaction; returns the change position it took and
    /// the transaction's ID (the commit's sequence).
    func run(on connection: PostgresSQLConnection) async throws -> (position: Int64, sequence: Int64) {
        let row = try await connection.firstRow(statement) { row in (row.value(at: 0), row.value(at: 1)) }
        guard case (.integer(let position), .integer(let sequence))? = row else {
            throw RecordStoreError.storage("the store's change history table has no row")
        }
        return (position, sequence)
    }
}
#endif

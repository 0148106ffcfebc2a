import PredicateLanguage
import RecordStore

/// Writes the database's zone changes (``DatabaseChanges``, `changes --database`) in a
/// ``ChangesOutputFormat``: `changed: ZONE` and `deleted: ZONE` lines then `token:` and
/// `moreComing:` (table); `{"changedZones", "deletedZones", "moreComing", "token"}` (json);
/// `{"zone"}` and `{"deleted": true, "zone"}` lines then `{"moreComing", "token"}` (jsonl).
///
/// ```swift
/// DatabaseChangesWriter.write(try await store.databaseChanges(), format: .table, to: .standardOutput())
/// ```
enum DatabaseChangesWriter {
    static func write(_ changes: DatabaseChanges, format: ChangesOutputFormat, to output: BufferedOutput) {
        let trailer: [String: Value] = ["moreComing": .bool(changes.moreComing), "token": .string(changes.token.stringValue)]
        switch format {
        case .table:
            for zone in changes.changedZones { output.writeLine("changed: \(zone.zoneName)") }
            for zone in changes.deletedZones { output.writeLine("deleted: \(zone.zoneName)") }
            output.writeLine("token: \(changes.token.stringValue)")
            output.writeLine("moreComing: \(changes.moreComing)")
        case .json:
            var document = trailer
            document["changedZones"] = .list(changes.changedZones.map { .string($0.zoneName) })
            document["deletedZones"] = .list(changes.deletedZones.map { .string($0.zoneName) })
            output.writeLine(Value.object(document).jsonText(sortedKeys: true))
        case .jsonl:
            for zone in changes.changedZones { output.writeLine(Value.object(["zone": .string(zone.zoneName)]).jsonText(sortedKeys: true)) }
            for zone in changes.deletedZones {
                output.writeLine(Value.object(["deleted": .bool(true), "zone": .string(zone.zoneName)]).jsonText(sortedKeys: true))
            }
            output.writeLine(Value.object(trailer).jsonText(sortedKeys: true))
        }
        output.flush()
    }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// What `schema/reset` deletes, or would delete, from the development environment: its zones
/// (as the store names them), its records by type, and the record types and fields of its
/// schema that production's lacks (the schema goes back to production's).
///
/// ```swift
/// let reset = DevelopmentReset(dryRun: true, zones: ["_defaultZone"], records: ["City": 3],
///                              recordTypesNotInProduction: ["Draft"], fieldsNotInProduction: ["City.mayor"])
/// reset.json   // {"environment": "development", "dryRun": true, "zones": ["_defaultZone"], "records": {"City": 3}, ...}
/// ```
struct DevelopmentReset: Sendable, Equatable {
    /// Whether nothing was deleted.
    let dryRun: Bool
    /// The development store's zones, by name, sorted.
    let zones: [String]
    /// The number of records of each record type, over every zone (types without records left out).
    let records: [String: Int]
    /// The record types of development's schema that production's lacks, sorted.
    let recordTypesNotInProduction: [String]
    /// The fields (`Type.field`) of development's record types that production's lack, sorted;
    /// the fields of a type production lacks are not repeated here.
    let fieldsNotInProduction: [String]

    /// The schema difference of `development` from `production`, with the zones and counts given.
    init(dryRun: Bool, zones: [String], records: [String: Int], development: [RecordTypeSchema], production: [RecordTypeSchema]) {
        let productionTypes = Dictionary(production.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var types: [String] = []
        var fields: [String] = []
        for recordType in development where !SystemRecordTypes.contains(recordType.name) {
            guard let held = productionTypes[recordType.name] else {
                types.append(recordType.name)
                continue
            }
            for field in recordType.fields where held.field(named: field.name) == nil {
                fields.append(recordType.name + "." + field.name)
            }
        }
        self.init(dryRun: dryRun, zones: zones, records: records, recordTypesNotInProduction: types.sorted(), fieldsNotInProduction: fields.sorted())
    }

    /// A reset of these parts.
    init(dryRun: Bool, zones: [String], records: [String: Int], recordTypesNotInProduction: [String], fieldsNotInProduction: [String]) {
        self.dryRun = dryRun
        self.zones = zones
        self.records = records
        self.recordTypesNotInProduction = recordTypesNotInProduction
        self.fieldsNotInProduction = fieldsNotInProduction
    }

    /// The answer: `environment` (`development`), `dryRun`, `zones`, `records`,
    /// `recordTypesNotInProduction` and `fieldsNotInProduction`.
    var json: JSONValue {
        .object([
            "environment": .string(Namespace.Environment.development.rawValue), "dryRun": .bool(dryRun),
            "zones": .array(zones.map(JSONValue.string)),
            "records": .object(records.mapValues { JSONValue.integer(Int64($0)) }),
            "recordTypesNotInProduction": .array(recordTypesNotInProduction.map(JSONValue.string)),
            "fieldsNotInProduction": .array(fieldsNotInProduction.map(JSONValue.string)),
        ])
    }
}
#endif

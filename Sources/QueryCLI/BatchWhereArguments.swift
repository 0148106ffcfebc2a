import ArgumentParser
import PredicateLanguage
import RecordStore

/// The flags of the batch commands (`query delete --where`, `query update`): the predicate that
/// picks the records, its `--arg` values, and the zone.
struct BatchWhereArguments: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Delete or update every record of the type that matches this predicate, in one transaction.", valueName: "predicate"))
    var predicate: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp(
        "A format argument of --where as JSON, one per %@/%d/%K... in order (repeat the flag).", valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("zone"), help: "The zone of the records (default: the default zone).")
    var zone: String?

    /// The zone named, or the default zone.
    var zoneID: ZoneID { zone.map(ZoneID.init(zoneName:)) ?? .default }

    /// The fetch request of the records to change: the type's records in the zone that match
    /// `--where`.
    func request(recordType: String) throws -> FetchRequest {
        var request = FetchRequest(entityName: recordType)
        if let predicate { request.predicate = try PredicateArguments.parsedPredicate(predicate, arguments: arguments) }
        request.zoneID = zoneID
        return request
    }

    /// The line a batch command prints: how many records of the type it changed, and how.
    static func summary(_ result: BatchResult, _ verb: String, recordType: String) -> String {
        "\(verb) \(result.count) \(recordType) record\(result.count == 1 ? "" : "s")"
    }
}

import ArgumentParser
import PredicateLanguage
import RecordStore

/// `query update`: sets fields on every record of a type that a predicate matches, in one
/// transaction (a batch update, Core Data's `NSBatchUpdateRequest`).
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Set fields on every record of a type that matches --where, in one transaction.",
        discussion: """
            Each --set is FIELD=JSON, with the JSON mapping of query save ({"$date": …}, \
            {"$location": [lat, lon]}, {"$ref": …}); null removes the field. Without --where every \
            record of the type is updated. The records are saved as any save is: their change \
            history is kept and the schema's rules apply; a refused update changes nothing.
            Example: query update City --where 'countrycode == "FR"' --set continent='"Europe"' --set visits=0
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @OptionGroup var batch: BatchWhereArguments

    @Option(name: .customLong("set"), help: ArgumentHelp("A field and its new value, FIELD=JSON (repeat the flag).", valueName: "field=json"))
    var assignments: [String] = []

    func validate() throws {
        if assignments.isEmpty { throw ValidationError("give at least one --set FIELD=JSON") }
    }

    func run() async throws {
        let values = try Self.values(assignments)
        let opened = try await store.openStore()
        let request = try batch.request(recordType: recordType)
        let result = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await opened.updateRecords(matching: request, set: values)
        }
        print(BatchWhereArguments.summary(result, "Updated", recordType: recordType))
    }

    /// The values of `--set FIELD=JSON` flags, by field; an error names the flag.
    static func values(_ assignments: [String]) throws -> [String: Value] {
        var values: [String: Value] = [:]
        for (index, assignment) in assignments.enumerated() {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw CommandFailure("--set number \(index + 1) ('\(assignment)') is not FIELD=JSON")
            }
            let field = String(assignment[..<equals])
            guard values[field] == nil else { throw CommandFailure("--set names the field '\(field)' twice") }
            let json = String(assignment[assignment.index(after: equals)...])
            do {
                values[field] = try Value(jsonText: json)
            } catch let error as JSONParsingError {
                throw CommandFailure("--set \(field)=… is not a JSON value: \(error.description)")
            }
        }
        return values
    }
}

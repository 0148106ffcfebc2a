import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Values taken from the differential data set, so that random predicates often select
/// records: the strings and numbers of each field, the alternate names, the locations and
/// the words of the names.
struct DatasetSamples: Sendable {
    /// Non-null values of each field, by field name.
    let values: [String: [Value]]
    /// Every alternate name of every record.
    let alternateNames: [String]
    /// Every location.
    let locations: [Location]
    /// The words of names and alternate names, as written.
    let words: [String]

    init(records: [Record]) {
        var values: [String: [Value]] = [:]
        var alternateNames: [String] = []
        var locations: [Location] = []
        var words: [String] = []
        for record in records {
            for (field, value) in record.fields {
                switch value {
                case .list(let members):
                    alternateNames += members.compactMap(\.stringValue)
                case .location(let location):
                    locations.append(location)
                default:
                    values[field, default: []].append(value)
                }
            }
            values["recordName", default: []].append(.string(record.recordID.recordName))
            if let name = record.fields["name"]?.stringValue {
                words += name.split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }
        words += alternateNames.prefix(500).flatMap { $0.split(separator: " ").map(String.init) }
        self.values = values
        self.alternateNames = alternateNames
        self.locations = locations
        self.words = words
    }

    /// The strings of a field (empty for a field no record has).
    func strings(of field: String) -> [String] {
        (values[field] ?? []).compactMap(\.stringValue)
    }

    /// The numbers of a field.
    func numbers(of field: String) -> [Value] {
        (values[field] ?? []).filter(\.isNumeric)
    }
}

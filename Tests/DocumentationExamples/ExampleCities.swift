import RecordStore

/// The cities the documents' setups store where a text assumes a store of cities: Tokyo, Paris,
/// Marseille and Lyon, with their GeoNames IDs, country codes and populations.
enum ExampleCities {
    static let records: [Record] = [
        city("1850147", name: "Tokyo", countryCode: "JP", population: 8_336_599),
        city("2988507", name: "Paris", countryCode: "FR", population: 2_138_551),
        city("2995469", name: "Marseille", countryCode: "FR", population: 877_215),
        city("2996944", name: "Lyon", countryCode: "FR", population: 520_774),
    ]

    /// Opens (creating) the SQLite store at `path` and saves the cities over any stored ones.
    static func store(path: String) throws -> Store {
        let store = try Store.open(path: path)
        try store.save(records, policy: .allKeys)
        return store
    }

    /// Saves the cities over any stored ones.
    static func save(into store: Store) async throws {
        try await store.save(records, policy: .allKeys)
    }

    private static func city(_ recordName: String, name: String, countryCode: String, population: Int64) -> Record {
        var city = Record(recordType: "City", recordID: RecordID(recordName: recordName))
        city["name"] = .string(name)
        city["countrycode"] = .string(countryCode)
        city["population"] = .int(population)
        return city
    }
}

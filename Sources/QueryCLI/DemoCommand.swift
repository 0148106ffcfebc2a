import ArgumentParser
import Foundation
import RecordStore

/// `query demo`: builds the sample database from the data the tool ships
/// (2,000 GeoNames cities, CC BY 4.0, and 1,000 airports from airportsdata, MIT).
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build the sample database: cities (GeoNames, CC BY 4.0) and airports (airportsdata, MIT).")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        // The demo starts from an empty store: a file of an earlier demo is removed first.
        let path = store.resolvedPath
        if let file = try store.location().sqliteFile {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file + suffix) {
                try FileManager.default.removeItem(atPath: file + suffix)
            }
        }
        guard let cities = Bundle.module.path(forResource: "cities.jsonl", ofType: "gz", inDirectory: "Demo"),
              let airports = Bundle.module.path(forResource: "airports.csv", ofType: "gz", inDirectory: "Demo") else {
            throw CommandFailure("the demo data is missing from the tool's resources")
        }
        let opened = try await store.openStore()
        var cityImporter = RecordImporter(recordType: "City")
        cityImporter.idField = "geonameid"
        cityImporter.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        let citySummary = try await ImportCommand.run(cityImporter, file: cities, into: opened)
        var airportImporter = RecordImporter(recordType: "Airport")
        airportImporter.idField = "icao"
        airportImporter.locations = [.init(name: "location", latitudeField: "lat", longitudeField: "lon")]
        let airportSummary = try await ImportCommand.run(airportImporter, file: airports, into: opened)
        print("Built \(path): \(citySummary.recordCount) City records, \(airportSummary.recordCount) Airport records")
        print("Data: GeoNames (CC BY 4.0), airportsdata (MIT). Try:")
        print("  query find City 'countrycode == \"FR\" AND population > 500000' --sort -population")
    }
}

import Foundation
import RecordStore
import Testing
import TestSupport

/// `query shares`: creating, showing, listing, inviting, accepting, removing and deleting shares,
/// and a user's permission on a record, with their exact output.
@Suite("query shares")
struct SharesCommandTests {
    /// A SQLite store with the zones Trips (trip <- day1 <- stop1, and loose) and Album (p1).
    static func makeStore() async throws -> String {
        let folder = TestFolders.make("shares-command")
        let database = folder.appendingPathComponent("trips.sqlite").path
        let store = try Store.open(path: database)
        let trips = ZoneID(zoneName: "Trips"), album = ZoneID(zoneName: "Album")
        try await store.createZone(trips)
        try await store.createZone(album)
        func item(_ name: String, _ zone: ZoneID, parent: String? = nil) -> Record {
            var record = Record(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zone), fields: ["title": .string(name)])
            record.parent = parent.map { RecordID(recordName: $0, zoneID: zone) }
            return record
        }
        try await store.save([item("trip", trips), item("day1", trips, parent: "trip"), item("stop1", trips, parent: "day1"), item("loose", trips), item("p1", album)])
        return database
    }

    /// Runs `query shares ARGUMENTS --db DATABASE`.
    static func shares(_ arguments: [String], _ database: String) async throws -> CommandRunner.Outcome {
        try await CommandRunner.run(["shares"] + arguments + ["--db", database])
    }

    @Test("create, accept, permission, list, invite, show, remove-participant and delete")
    func lifecycle() async throws {
        let database = try await Self.makeStore()
        let created = try await Self.shares(
            ["create", "--zone", "Trips", "--record", "trip", "--owner", "_ada", "--name", "share-trip",
             "--read-only", "_bob", "--read-write", "carol@example.org"], database)
        #expect(created.status == 0, "\(created.standardError)")
        let lines = created.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let guid = try #require(lines.first { $0.hasPrefix("shortGUID\t") }.map { String($0.dropFirst("shortGUID\t".count)) })
        #expect(guid.count == 22)
        #expect(created.standardOutput == """
            share\tTrips/share-trip
            root\tTrips/trip
            owner\t_ada
            public\tNONE
            shortGUID\t\(guid)
            participant\t_ada\t-\tOWNER\tREAD_WRITE\tACCEPTED
            participant\t_bob\t-\tPRIVATE_USER\tREAD_ONLY\tPENDING
            participant\t-\tcarol@example.org\tPRIVATE_USER\tREAD_WRITE\tPENDING

            """)
        #expect(try await Self.shares(["permission", "--zone", "Trips", "stop1", "--user", "_bob"], database).standardOutput == "NONE\n")
        #expect(try await Self.shares(["list", "--user", "_bob"], database).standardOutput
            == "\(guid)\tTrips\tshare-trip\ttrip\t_ada\tNONE\tPENDING\t-\n")

        #expect(try await Self.shares(["accept", guid, "--user", "_bob"], database).standardOutput == "_bob accepted Trips/share-trip: READ_ONLY\n")
        #expect(try await Self.shares(["accept", guid, "--user", "_carol", "--email", "carol@example.org"], database).standardOutput
            == "_carol accepted Trips/share-trip: READ_WRITE\n")
        for (record, user, expected) in [("stop1", "_bob", "READ_ONLY"), ("day1", "_carol", "READ_WRITE"), ("loose", "_carol", "NONE"),
                                         ("stop1", "_ada", "READ_WRITE"), ("stop1", "_dan", "NONE")] {
            let answer = try await Self.shares(["permission", "--zone", "Trips", record, "--user", user], database)
            #expect(answer.standardOutput == expected + "\n", "\(record) for \(user): \(answer.standardError)")
        }
        #expect(try await Self.shares(["list"], database).standardOutput == "\(guid)\tTrips\tshare-trip\ttrip\t_ada\tNONE\n")
        #expect(try await Self.shares(["list", "--user", "_bob"], database).standardOutput
            == "\(guid)\tTrips\tshare-trip\ttrip\t_ada\tNONE\tACCEPTED\tREAD_ONLY\n")
        #expect(try await Self.shares(["list", "--owner", "_ada"], database).standardOutput == "\(guid)\tTrips\tshare-trip\ttrip\t_ada\tNONE\n")
        #expect(try await Self.shares(["list", "--owner", "_bob"], database).standardOutput == "")

        let invited = try await Self.shares(["invite", guid, "_bob", "--permission", "read-write"], database)
        #expect(invited.standardOutput == """
            share\tTrips/share-trip
            root\tTrips/trip
            owner\t_ada
            public\tNONE
            shortGUID\t\(guid)
            participant\t_ada\t-\tOWNER\tREAD_WRITE\tACCEPTED
            participant\t_bob\t-\tPRIVATE_USER\tREAD_WRITE\tACCEPTED
            participant\t_carol\tcarol@example.org\tPRIVATE_USER\tREAD_WRITE\tACCEPTED

            """)
        #expect(try await Self.shares(["invite", guid, "_dan"], database).status == 0)
        #expect(try await Self.shares(["show", guid], database).standardOutput.hasSuffix(
            "participant\t_dan\t-\tPRIVATE_USER\tREAD_ONLY\tPENDING\n"))

        #expect(try await Self.shares(["remove-participant", guid, "_bob"], database).standardOutput == "_bob no longer shares Trips/share-trip\n")
        #expect(try await Self.shares(["permission", "--zone", "Trips", "stop1", "--user", "_bob"], database).standardOutput == "NONE\n")
        let refused = try await Self.shares(["accept", guid, "--user", "_bob"], database)
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: Sharing: _bob is not a participant of share '\(guid)', and the share has no public permission\n")
        let again = try await Self.shares(["create", "--zone", "Trips", "--record", "trip", "--owner", "_ada", "--name", "second"], database)
        #expect(again.status == 1)
        #expect(again.standardError == "error: Sharing: Trips/trip is already shared by Trips/share-trip (a record has one share; a zone has one "
            + "zone-wide share or record shares, not both)\n")

        #expect(try await Self.shares(["delete", guid], database).standardOutput == "Deleted share Trips/share-trip\n")
        #expect(try await Self.shares(["permission", "--zone", "Trips", "stop1", "--user", "_carol"], database).standardOutput == "NONE\n")
        let gone = try await Self.shares(["show", guid], database)
        #expect(gone.status == 1)
        #expect(gone.standardError == "error: Sharing: there is no share with short GUID '\(guid)'\n")
        #expect(try await Self.shares(["list"], database).standardOutput == "")
    }

    @Test("A zone-wide share with a public permission: any user who accepts reads the zone")
    func zoneWide() async throws {
        let database = try await Self.makeStore()
        let created = try await Self.shares(["create", "--zone", "Album", "--zone-wide", "--owner", "_ada", "--public", "read-only"], database)
        #expect(created.status == 0, "\(created.standardError)")
        let guid = try #require(created.standardOutput.split(separator: "\n").first { $0.hasPrefix("shortGUID\t") }?.dropFirst("shortGUID\t".count))
        #expect(created.standardOutput == """
            share\tAlbum/cloudkit.zoneshare
            root\t* (the whole zone)
            owner\t_ada
            public\tREAD_ONLY
            shortGUID\t\(guid)
            participant\t_ada\t-\tOWNER\tREAD_WRITE\tACCEPTED

            """)
        #expect(try await Self.shares(["accept", String(guid), "--user", "_dan"], database).standardOutput
            == "_dan accepted Album/cloudkit.zoneshare: READ_ONLY\n")
        #expect(try await Self.shares(["permission", "--zone", "Album", "p1", "--user", "_dan"], database).standardOutput == "READ_ONLY\n")
        #expect(try await Self.shares(["list", "--user", "_dan"], database).standardOutput
            == "\(guid)\tAlbum\tcloudkit.zoneshare\t*\t_ada\tREAD_ONLY\tACCEPTED\tREAD_ONLY\n")
        #expect(try await Self.shares(["show", String(guid)], database).standardOutput.hasSuffix(
            "participant\t_dan\t-\tPUBLIC_USER\tREAD_ONLY\tACCEPTED\n"))

        let neither = try await Self.shares(["create", "--zone", "Album", "--owner", "_ada"], database)
        #expect(neither.status == 2)
        #expect(neither.standardError.contains("Give either --record NAME or --zone-wide."))
        let defaultZone = try await Self.shares(["create", "--zone", "_defaultZone", "--record", "x", "--owner", "_ada", "--name", "s"], database)
        #expect(defaultZone.status == 1)
        #expect(defaultZone.standardError == "error: Sharing: share s is not valid: the default zone cannot be shared: shares live in custom zones\n")
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Hostile input through every entry point of the store, on both engines: SQL fragments,
/// quotes, NUL bytes, strings decoded from invalid UTF-8, 1 MB strings, names with dots,
/// spaces and non-ASCII letters, `%K` keys, huge IN lists, deep nesting, fetch requests,
/// lookups by ID and cursors. Each case gets the exact result or the exact typed error,
/// and afterwards the store still answers a known query with the known result.
@Suite("Hardening: hostile input through the store's entry points")
struct HostileStoreInputTests {
    static let engines = TestEngine.allCases

    /// A fresh store of an engine holding ``knownItems``.
    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.save(knownItems)
        return store
    }

    /// Twelve items, `item000`…`item011`, each `rank` = its number and `title` = "known N".
    static let knownItems: [Record] = (0..<12).map { index in
        var record = Record(recordType: "Item", recordID: RecordID(recordName: String(format: "item%03d", index)))
        record["rank"] = .int(Int64(index))
        record["title"] = .string("known \(index)")
        return record
    }

    /// The store still works: the known query gives the known result, and every known item is there.
    static func expectIntact(_ store: Store, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try store.records(ofType: "Item", matching: FormatPredicate(format: "rank >= 4 AND rank < 7"), sorts: [Sort("rank")])
        #expect(found.map(\.recordID.recordName) == ["item004", "item005", "item006"], "\(context)", sourceLocation: sourceLocation)
        #expect(try store.count(ofType: "Item", matching: FormatPredicate(format: "title BEGINSWITH 'known'")) == 12, "\(context)", sourceLocation: sourceLocation)
        #expect(try store.record(for: RecordID(recordName: "item011"))?["title"] == "known 11", "\(context)", sourceLocation: sourceLocation)
    }

    static let megabyte = String(repeating: "0123456789abcdef", count: 65_536)
    /// Bytes that are not UTF-8 (a lone continuation byte, a truncated sequence, an overlong
    /// encoding, bytes never valid) decoded leniently: replacement characters.
    static let fromInvalidUTF8 = String(decoding: [0x61, 0x80, 0x62, 0xC3, 0x28, 0xC0, 0xAF, 0xFF, 0xFE, 0x63] as [UInt8], as: UTF8.self)

    /// SQL fragments, quotes, NUL bytes, invalid UTF-8, LIKE wildcards and escapes.
    static let hostileStrings: [String] = [
        #""; DROP TABLE records; --"#,
        "' OR 1=1 --",
        #"Robert'); DROP TABLE "Item";--"#,
        #"x" OR "1"="1"#,
        "'", "\"", "''", "\\", "\\'", "`", ";",
        "a\u{0}b", "\u{0}", "\u{0}\u{0}trailing",
        fromInvalidUTF8,
        "100%", "a_b", "%", "_", "[abc]", "a\nb\r\nc\t",
        "$X", "%K", "%@", "@count", "SELF",
        "Ünïcødé 名前 🙂",
        "*", "?",
    ]

    /// The hostile strings without a NUL character: what a store can hold.
    static let storableStrings = hostileStrings.filter { !NulCharacter.isIn($0) }
    /// The hostile strings with a NUL character.
    static let nulStrings = hostileStrings.filter { NulCharacter.isIn($0) }

    /// Names that are not identifiers: hostile strings, dots, spaces, non-ASCII, leading digits or underscores, too long.
    static let invalidNames: [String] = hostileStrings.filter { $0 != "a_b" && $0 != "SELF" } + [
        "", "a.b", "a b", " a", "a ", "1abc", "_abc", "名前", "Ünï", "a-b", "a$b",
        String(repeating: "a", count: 256), megabyte,
    ]

    // MARK: - Record type names

    @Test(arguments: engines)
    func invalidRecordTypeNamesAreRejectedEverywhere(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for name in Self.invalidNames {
            let record = Record(recordType: name, recordID: RecordID(recordName: "x"))
            #expect(throws: RecordStoreError.invalidRecordTypeName(name), "\(name.prefix(40))") { try store.save([record]) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.records(ofType: name, matching: .truePredicate) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.count(ofType: name, matching: .truePredicate) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.explain(ofType: name, matching: .truePredicate) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.define(RecordTypeSchema(name: name)) }
            #expect(throws: name.isEmpty ? RecordStoreError.invalidQuery("the record type is empty") : .invalidRecordTypeName(name)) {
                try RecordQuery(recordType: name, predicate: .truePredicate)
            }
            #expect(throws: name.isEmpty ? RecordStoreError.invalidQuery("the entity name is empty") : .invalidRecordTypeName(name)) {
                try store.fetch(FetchRequest(entityName: name))
            }
            #expect(throws: name.isEmpty ? RecordStoreError.invalidQuery("the entity name is empty") : .invalidRecordTypeName(name)) {
                try store.count(for: FetchRequest(entityName: name))
            }
            // An atomic modify writes nothing of the batch.
            var valid = Record(recordType: "Item", recordID: RecordID(recordName: "written"))
            valid["rank"] = 99
            let result = try store.modify(saving: [valid, record], deleting: [])
            #expect(result.saveResults[record.recordID].flatMap { try? $0.get() } == nil)
            #expect(try store.record(for: valid.recordID) == nil)
        }
        #expect(try store.schema().map(\.name) == ["Item"])
        try Self.expectIntact(store)
        #expect(RecordStoreError.invalidRecordTypeName("a b").description
            == "Invalid record type name 'a b': use letters, digits and underscores, starting with a letter (at most 255), not starting with sqlite_")
    }

    @Test(arguments: engines)
    func longestValidRecordTypeNameWorks(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let name = "T" + String(repeating: "x_9", count: 84) + "Z"   // 254 + 1 = 255 bytes
        #expect(name.utf8.count == 254)
        let longest = name + "Q"
        var record = Record(recordType: longest, recordID: RecordID(recordName: "one"))
        record["value"] = 1
        try store.save([record])
        #expect(try store.records(ofType: longest, matching: FormatPredicate(format: "value == 1")).map(\.recordID.recordName) == ["one"])
        try Self.expectIntact(store)
    }

    @Test(arguments: engines)
    func sqliteReservedRecordTypeNamesAreRejected(engine: TestEngine) throws {
        let store = try Self.store(engine)
        try store.optimize()   // SQLite creates sqlite_stat1 here
        for name in ["sqlite_master", "sqlite_stat1", "SQLITE_schema", "Sqlite_x"] {
            var record = Record(recordType: name, recordID: RecordID(recordName: "x"))
            record["value"] = 1
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.save([record]) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.records(ofType: name, matching: .truePredicate) }
            #expect(throws: RecordStoreError.invalidRecordTypeName(name)) { try store.define(RecordTypeSchema(name: name)) }
        }
        // Only the prefix is reserved.
        var allowed = Record(recordType: "sqliteish", recordID: RecordID(recordName: "x"))
        allowed["value"] = 1
        try store.save([allowed])
        #expect(try store.count(ofType: "sqliteish", matching: .truePredicate) == 1)
        try Self.expectIntact(store)
    }

    // MARK: - Field names

    @Test(arguments: engines)
    func invalidFieldNamesAreRejected(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let metadata = ["recordName", "recordType", "recordID", "creationDate", "modificationDate", "recordChangeTag"]
        for name in Self.invalidNames + metadata {
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "bad"))
            record.fields[name] = .string("v")
            #expect(throws: RecordStoreError.invalidFieldName(name, recordType: "Item"), "\(name.prefix(40))") { try store.save([record]) }
            #expect(throws: RecordStoreError.invalidFieldName(name, recordType: "Item")) {
                try store.define(RecordTypeSchema(name: "Item", fields: [FieldSchema(name: name, type: .string)]))
            }
            #expect(try store.record(for: record.recordID) == nil)
        }
        #expect(try store.schema(for: "Item")?.fields.map(\.name) == ["rank", "title"])
        try Self.expectIntact(store)
    }

    /// Field names that collide with the SQLite layout's own names (`T$list`, `T$fts`, the
    /// unique index `T$$record`) are ordinary fields.
    @Test(arguments: engines)
    func fieldNamesLikeTheLayoutsOwnNamesAreOrdinary(engine: TestEngine) throws {
        let store = try Self.store(engine)
        var record = Record(recordType: "Item", recordID: RecordID(recordName: "layout"))
        for name in ["list", "fts", "rtree", "record", "value", "index", "latitude", "longitude", "zones", "schema", "records"] {
            record.fields[name] = .string("field \(name)")
        }
        record["location"] = .location(Location(latitude: 1, longitude: 2))
        record["tags"] = .list(["a", "b"])
        try store.save([record])
        #expect(try store.record(for: record.recordID)?.fields == record.fields)
        for name in ["list", "fts", "rtree", "record", "value", "index"] {
            let found = try store.records(ofType: "Item", matching: FormatPredicate(format: "%K == %@", name, "field \(name)"))
            #expect(found.map(\.recordID.recordName) == ["layout"], "\(name)")
        }
        #expect(try store.records(ofType: "Item", matching: FormatPredicate(format: "self CONTAINS 'fts'")).map(\.recordID.recordName) == ["layout"])
        #expect(try store.records(ofType: "Item", matching: FormatPredicate(format: "tags CONTAINS 'b'")).map(\.recordID.recordName) == ["layout"])
        try Self.expectIntact(store)
    }

    // MARK: - Zone names

    @Test(arguments: engines)
    func hostileZoneNamesAreOrdinaryNames(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for name in Self.nulStrings {
            let zone = ZoneID(zoneName: name)
            #expect(throws: RecordStoreError.invalidZoneName(name)) { try store.createZone(zone) }
            #expect(throws: RecordStoreError.zoneNotFound(zone)) { try store.records(ofType: "Item", matching: .truePredicate, zone: zone) }
            #expect(throws: RecordStoreError.zoneNotFound(zone)) {
                try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "x", zoneID: zone))])
            }
            #expect(throws: RecordStoreError.zoneNotFound(zone)) { try store.deleteZone(zone) }
        }
        let zoneNames = Self.storableStrings + ["a.b", "a b", "名前", Self.longString(engine), ZoneID.default.zoneName + " "]
        for name in zoneNames {
            let zone = ZoneID(zoneName: name)
            #expect(throws: RecordStoreError.zoneNotFound(zone), "\(name.prefix(40))") {
                try store.records(ofType: "Item", matching: .truePredicate, zone: zone)
            }
            #expect(throws: RecordStoreError.zoneNotFound(zone)) {
                try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "item000", zoneID: zone))])
            }
            try store.createZone(zone)
            var copies = Array(Self.knownItems.prefix(2))
            for index in copies.indices {
                copies[index].recordID.zoneID = zone
                copies[index]["title"] = .string("in zone \(name)")
            }
            try store.save(copies)
            let found = try store.records(ofType: "Item", matching: FormatPredicate(format: "title == %@", "in zone \(name)"), sorts: [Sort("rank")], zone: zone)
            #expect(found.map(\.recordID) == copies.map(\.recordID), "\(name.prefix(40))")
            #expect(found.map(\.recordID.zoneID.zoneName) == [name, name])
            #expect(try store.record(for: RecordID(recordName: "item001", zoneID: zone))?["title"] == .string("in zone \(name)"))
            #expect(try store.count(ofType: "Item", matching: .truePredicate, zone: zone) == 2)
        }
        #expect(Set(try store.zones().map(\.zoneName)) == Set(zoneNames + [ZoneID.default.zoneName]))
        try Self.expectIntact(store)
        for name in zoneNames {
            try store.deleteZone(ZoneID(zoneName: name))
        }
        #expect(try store.zones() == [.default])
        #expect(throws: RecordStoreError.invalidZoneName("")) { try store.createZone(ZoneID(zoneName: "")) }
        #expect(throws: RecordStoreError.cannotDeleteDefaultZone) { try store.deleteZone(.default) }
        try Self.expectIntact(store)
    }

    // MARK: - Record names and lookups

    @Test(arguments: engines)
    func hostileRecordNamesAreStoredAndFoundExactly(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for name in Self.nulStrings {
            #expect(throws: RecordStoreError.invalidRecordName(name)) { try store.save([Record(recordType: "Item", recordID: RecordID(recordName: name))]) }
        }
        #expect(RecordStoreError.invalidRecordName("a\u{0}b").description == "Invalid record name 'a\u{0}b': a record name must not hold a NUL character")
        let names = Self.storableStrings + ["a.b", "a b", " ", Self.longString(engine), "item000 "]
        let records = names.enumerated().map { index, name in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: name))
            record["rank"] = .int(Int64(1_000 + index))
            return record
        }
        let saved = try store.save(records)
        for (index, name) in names.enumerated() {
            let id = RecordID(recordName: name)
            #expect(try store.record(for: id) == saved[index], "\(name.prefix(40))")
            #expect(try store.records(ofType: "Item", matching: FormatPredicate(format: "recordName == %@", name)).map(\.recordID.recordName) == [name])
            #expect(try store.records(ofType: "Item", matching: FormatPredicate(format: "rank == %d", 1_000 + index)).map(\.recordID.recordName) == [name])
        }
        let lookups = try store.records(for: records.map(\.recordID))
        #expect(lookups.count == names.count)
        #expect(records.allSatisfy { (try? lookups[$0.recordID]?.get())?.recordID == $0.recordID })
        // Sorted by record name, they come back in code point order.
        let sorted = try store.records(ofType: "Item", matching: FormatPredicate(format: "rank >= 1000"), sorts: [Sort("recordName")])
        #expect(sorted.map(\.recordID.recordName) == names.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) })
        try store.delete(records.map(\.recordID))
        #expect(try store.count(ofType: "Item", matching: .truePredicate) == 12)
        try Self.expectIntact(store)
    }

    @Test(arguments: engines)
    func lookupsByHostileIDsFindNothing(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let ids = (Self.hostileStrings + ["", Self.megabyte, "item000\u{0}"]).map { RecordID(recordName: $0) }
            + [RecordID(recordName: "item000", zoneID: ZoneID(zoneName: "' OR 1=1 --"))]
        for id in ids {
            #expect(try store.record(for: id) == nil, "\(id.recordName.prefix(40))")
        }
        let found = try store.records(for: ids)
        #expect(found.count == ids.count)
        for id in ids {
            #expect(throws: RecordStoreError.recordNotFound(id)) { try found[id]?.get() }
        }
        try store.delete(ids)
        let result = try store.modify(saving: [], deleting: ids)
        #expect(result.isSuccess)
        try Self.expectIntact(store)
    }

    // MARK: - Values

    /// The values stored in `text` by ``valueStore(_:)``: every hostile string, a 1 MB string, and plain ones.
    static let values: [String] = storableStrings + [megabyte, "plain", "a", "b", "a\u{1}b", "ab"]

    /// The longest string an engine stores in an indexed field, a record name or a zone name:
    /// 1 MB, but 800 bytes on PostgreSQL, whose B-tree indexes hold at most about 2,600 bytes
    /// a value (with its sort keys, 800 bytes of text stay under that); the same pattern, so
    /// every predicate of these tests treats both alike. `PostgresEngineTests` checks that
    /// longer ones are clear errors there.
    static func longString(_ engine: TestEngine) -> String {
        engine == .postgres ? String(repeating: "0123456789abcdef", count: 50) : megabyte
    }

    /// ``values`` as an engine stores them (``longString(_:)`` for the 1 MB string).
    static func values(_ engine: TestEngine) -> [String] {
        values.map { $0 == megabyte ? longString(engine) : $0 }
    }

    static func valueStore(_ engine: TestEngine) throws -> Store {
        let store = try Self.store(engine)
        try store.save(values(engine).enumerated().map { index, text in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: String(format: "value%03d", index)))
            record["text"] = .string(text)
            record["tags"] = .list([.string(text), "common"])
            return record
        })
        return store
    }

    /// The names of the value records whose text passes a test.
    static func valueNames(_ engine: TestEngine = .memory, where test: (String) -> Bool) -> [String] {
        values(engine).enumerated().filter { test($0.element) }.map { String(format: "value%03d", $0.offset) }
    }

    /// The names of ``knownItems`` (which have no `text`).
    static let knownNames = knownItems.map(\.recordID.recordName)

    /// Whether `text`'s UTF-8 holds `part`'s.
    static func bytes(_ text: String, contain part: String) -> Bool {
        part.isEmpty || Data(text.utf8).range(of: Data(part.utf8)) != nil
    }

    /// Whether `text`'s UTF-8 ends with `part`'s.
    static func bytes(_ text: String, endWith part: String) -> Bool {
        let haystack = Data(text.utf8)
        let needle = Data(part.utf8)
        return haystack.count >= needle.count && haystack.suffix(needle.count) == needle
    }

    @Test(arguments: engines)
    func hostileValuesAreStoredByteExactAndMatchExactly(engine: TestEngine) throws {
        let store = try Self.valueStore(engine)
        func names(_ format: String, _ argument: any FormatArgument) throws -> [String] {
            try store.records(ofType: "Item", matching: FormatPredicate(format: format, argument), sorts: [Sort("recordName")]).map(\.recordID.recordName)
        }
        for (index, text) in Self.values(engine).enumerated() {
            let id = RecordID(recordName: String(format: "value%03d", index))
            let stored = try store.record(for: id)
            #expect(stored?["text"] == .string(text), "\(text.prefix(40))")
            #expect(stored?["text"]?.stringValue.map { Array($0.utf8) } == Array(text.utf8))
            #expect(stored?["tags"] == .list([.string(text), "common"]))
            let context = "\(index): \(text.prefix(40).debugDescription)"
            #expect(try names("text == %@", text) == Self.valueNames(engine) { $0 == text }, "\(context)")
            #expect(try names("text != %@", text) == Self.knownNames + Self.valueNames(engine) { $0 != text }, "\(context)")
            #expect(try names("text CONTAINS %@", text) == Self.valueNames(engine) { Self.bytes($0, contain: text) }, "\(context)")
            #expect(try names("text BEGINSWITH %@", text) == Self.valueNames(engine) { Data($0.utf8).starts(with: Data(text.utf8)) }, "\(context)")
            #expect(try names("text ENDSWITH %@", text) == Self.valueNames(engine) { Self.bytes($0, endWith: text) }, "\(context)")
            #expect(try names("tags CONTAINS %@", text) == Self.valueNames(engine) { $0 == text }, "\(context)")
            #expect(try names("ANY tags == %@", text) == Self.valueNames(engine) { $0 == text }, "\(context)")
            #expect(try names("text IN %@", Value.list([.string(text), "absent"])) == Self.valueNames(engine) { $0 == text }, "\(context)")
            if !text.contains("*"), !text.contains("?"), !text.contains("\\") {
                // LIKE's wildcards are * and ?; SQL's % and _ match only themselves.
                #expect(try names("text LIKE %@", text) == Self.valueNames(engine) { $0 == text }, "\(context)")
            }
        }
        try Self.expectIntact(store)
    }

    @Test(arguments: engines)
    func nulCharactersCannotBeStoredAndMatchNothing(engine: TestEngine) throws {
        let store = try Self.valueStore(engine)
        for text in Self.nulStrings {
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "nul"))
            record["text"] = .string(text)
            let refused = RecordStoreError.unsupportedValue(field: "text", recordType: "Item", reason: "a string holds a NUL character (U+0000), which cannot be stored")
            #expect(throws: refused) { try store.save([record]) }
            record["text"] = nil
            record["tags"] = .list(["ok", .string(text)])
            #expect(throws: RecordStoreError.unsupportedValue(field: "tags", recordType: "Item", reason: "a string holds a NUL character (U+0000), which cannot be stored")) {
                try store.save([record])
            }
            #expect(try store.record(for: RecordID(recordName: "nul")) == nil)
        }
        // A NUL in a query's constant is compared in full, never cut short: "a\0b" is not "a".
        func names(_ format: String, _ argument: String) throws -> [String] {
            try store.records(ofType: "Item", matching: FormatPredicate(format: format, argument), sorts: [Sort("recordName")]).map(\.recordID.recordName)
        }
        let texts = ["a\u{0}b", "\u{0}", "a\u{0}"]
        for text in texts {
            #expect(try names("text == %@", text) == [], "\(text.debugDescription)")
            #expect(try names("text != %@", text) == Self.knownNames + Self.valueNames { _ in true })
            #expect(try names("text CONTAINS %@", text) == [])
            #expect(try names("text BEGINSWITH %@", text) == [])
            #expect(try names("recordName == %@", "item000" + text) == [])
            #expect(try names("tags CONTAINS %@", text) == [])
            #expect(try store.count(ofType: "Item", matching: FormatPredicate(format: "text IN %@", Value.list([.string(text)]))) == 0)
        }
        // Ordering by code points: "a" < "a\0b" < "a\u{1}b" < "a\nb…" < "a_b" < "ab".
        func precedes(_ left: String, _ right: String) -> Bool { left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars) }
        #expect(try names("text > %@ AND text < 'ac'", "a\u{0}b") == Self.valueNames { precedes("a\u{0}b", $0) && precedes($0, "ac") })
        #expect(Self.valueNames { precedes("a\u{0}b", $0) && precedes($0, "ac") }.count == 4)
        #expect(try names("text >= 'a' AND text < %@", "a\u{0}b") == Self.valueNames { $0 == "a" })
        try Self.expectIntact(store)
    }

    @Test func fullTextSearchForHostileWordsAgreesAcrossEngines() throws {
        let memory = try Self.valueStore(TestEngine.reference)
        for engine in TestEngine.allCases where engine != TestEngine.reference {
            let store = try Self.valueStore(engine)
            for text in Self.hostileStrings + ["DROP TABLE", "records", "\"drop\" OR \"x\"", "drop*", "NEAR(drop table)", "known"] {
                let predicate = try FormatPredicate(format: "self CONTAINS %@", text)
                let expected = try memory.records(ofType: "Item", matching: predicate, sorts: [Sort("recordName")]).map(\.recordID.recordName)
                let found = try store.records(ofType: "Item", matching: predicate, sorts: [Sort("recordName")]).map(\.recordID.recordName)
                #expect(found == expected, "\(engine): \(text.debugDescription)")
            }
            let drop = try store.records(ofType: "Item", matching: FormatPredicate(format: "self CONTAINS 'drop table'"), sorts: [Sort("recordName")])
            #expect(drop.map(\.recordID.recordName) == ["value000", "value002"], "\(engine)")
            try Self.expectIntact(store)
        }
    }

    // MARK: - %K keys and sort keys

    @Test(arguments: engines)
    func hostileKeysAreUnknownFields(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let keys = [#"rank"; DROP TABLE "Item"; --"#, "' OR 1=1 --", "rank\u{0}", "rank) OR (1=1", "t.rank", "rank ", "\"rank\""]
        // Each is a field the type never had: an error naming it (the first component of a key
        // path), with the type's closest names, never SQL and never an empty result.
        let names = ["rank", "title"] + MetadataField.allCases.map(\.rawValue)
        func unknown(_ name: String) -> RecordStoreError {
            .unknownField(name, recordType: "Item", suggestions: NameSuggestions.closest(to: name, among: names))
        }
        #expect(unknown("rank\u{0}") == .unknownField("rank\u{0}", recordType: "Item", suggestions: ["rank"]))
        #expect(unknown("' OR 1=1 --") == .unknownField("' OR 1=1 --", recordType: "Item", suggestions: []))
        for key in keys {
            let predicateName = key.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? key
            for format in ["%K == 5", "%K != 5", "%K == nil", "%K BEGINSWITH 'k'"] {
                #expect(throws: unknown(predicateName), "\(key): \(format)") {
                    try store.count(ofType: "Item", matching: FormatPredicate(format: format, key))
                }
            }
            // A sort key is a key path too (`department.name`): the error names its first component.
            #expect(throws: unknown(predicateName), "\(key)") {
                try store.records(ofType: "Item", matching: FormatPredicate(format: "rank < 3"), sorts: [Sort(key, ascending: false)])
            }
            #expect(throws: RecordStoreError.invalidSort(key: "-", reason: "the key is empty")) { try Sort(parsing: "-") }
        }
        try Self.expectIntact(store)
    }

    // MARK: - Huge IN lists and deep nesting

    @Test(arguments: engines)
    func hundredThousandMemberInListsGiveExactResults(engine: TestEngine) throws {
        let store = try Self.store(engine)
        // Every third rank from -150,000: 0, 3, 6 and 9 are among the known items.
        let numbers: [Value] = stride(from: -150_000, to: 150_000, by: 3).map { .int(Int64($0)) }
        #expect(numbers.count == 100_000)
        let byRank = try store.records(ofType: "Item", matching: FormatPredicate(format: "rank IN %@", Value.list(numbers)), sorts: [Sort("rank")])
        #expect(byRank.map(\.recordID.recordName) == ["item000", "item003", "item006", "item009"])
        #expect(try store.count(ofType: "Item", matching: FormatPredicate(format: "NOT (rank IN %@)", Value.list(numbers))) == 8)
        let names: [Value] = (0..<100_000).map { .string(String(format: "item%03d", $0 * 5)) } + Self.hostileStrings.map(Value.string)
        let byName = try store.records(ofType: "Item", matching: FormatPredicate(format: "recordName IN %@", Value.list(names)), sorts: [Sort("recordName")])
        #expect(byName.map(\.recordID.recordName) == ["item000", "item005", "item010"])
        let titles: [Value] = (0..<100_000).map { .string("known \($0 * 7)") }
        #expect(try store.count(ofType: "Item", matching: FormatPredicate(format: "title IN %@", Value.list(titles))) == 2)
        // A wide OR of 5,000 comparisons.
        let wide = FormatPredicate.or(try (0..<5_000).map { try FormatPredicate(format: "rank == %d", $0 * 2 + 1) })
        #expect(try store.count(ofType: "Item", matching: wide) == 6)
        try Self.expectIntact(store)
    }

    @Test(arguments: engines)
    func deepNestingIsExactUpToTheLimitAndAClearErrorBeyond(engine: TestEngine) throws {
        let store = try Self.store(engine)
        // 199 NOTs around a comparison: the deepest the parser takes; an odd count negates.
        let parsed = try FormatPredicate(format: String(repeating: "NOT ", count: 199) + "rank < 10")
        #expect(try store.records(ofType: "Item", matching: parsed, sorts: [Sort("rank")]).map(\.recordID.recordName) == ["item010", "item011"])
        let parenthesized = try FormatPredicate(format: String(repeating: "(", count: 150) + "rank == 4" + String(repeating: ")", count: 150))
        #expect(try store.count(ofType: "Item", matching: parenthesized) == 1)
        // Built by hand, a predicate can be deeper than the parser allows: the store refuses it.
        var deep = try FormatPredicate(format: "rank == 4")
        for _ in 0..<2_000 { deep = .not(deep) }
        let tooDeep = RecordStoreError.invalidQuery("the predicate is nested more than 300 levels deep")
        #expect(throws: tooDeep) { try store.records(ofType: "Item", matching: deep) }
        #expect(throws: tooDeep) { try store.count(ofType: "Item", matching: deep) }
        #expect(throws: tooDeep) { try RecordQuery(recordType: "Item", predicate: deep) }
        #expect(throws: tooDeep) { try store.fetch(FetchRequest(entityName: "Item", predicate: deep)) }
        var deepAnd = try FormatPredicate(format: "rank == 4")
        for _ in 0..<1_000 { deepAnd = .and([deepAnd, .truePredicate]) }
        #expect(throws: tooDeep) { try store.records(ofType: "Item", matching: deepAnd) }
        var expression = FormatExpression.keyPath("rank")
        for _ in 0..<2_000 { expression = .negation(expression) }
        let deepExpression = FormatPredicate.comparison(ComparisonPredicate(expression, .equalTo, .constant(.int(4))))
        #expect(throws: tooDeep) { try store.records(ofType: "Item", matching: deepExpression) }
        try Self.expectIntact(store)
    }

    // MARK: - Fetch requests

    @Test(arguments: engines)
    func fetchRequestsWithHostilePropertiesFetchOnlyRealFields(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let hostile = #"title"; DROP TABLE "Item"; --"#
        var request = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "rank < 2"), sortDescriptors: [Sort("rank")], resultType: .dictionaries)
        request.propertiesToFetch = [.field("title"), .field(hostile), .field("' OR 1=1 --"), .field("a\u{0}b")]
        #expect(try store.fetch(request).dictionaries == [["title": "known 0"], ["title": "known 1"]])
        request.resultType = .records
        #expect(try store.fetch(request).records.map(\.fields) == [["title": "known 0"], ["title": "known 1"]])
        request.resultType = .dictionaries
        request.propertiesToFetch = [.aggregate(AggregateProperty(name: hostile, function: .count, key: "rank"))]
        #expect(try store.fetch(request).dictionaries == [[hostile: 2]])
        request.propertiesToFetch = [.aggregate(AggregateProperty(name: "n", function: .count, key: hostile))]
        #expect(try store.fetch(request).dictionaries == [["n": 0]])
        request.propertiesToGroupBy = [hostile]
        request.propertiesToFetch = [.aggregate(AggregateProperty(name: "n", function: .count, key: "rank"))]
        #expect(try store.fetch(request).dictionaries == [["n": 2]])
        var sorted = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "rank < 3"), sortDescriptors: [Sort(hostile)])
        sorted.fetchLimit = 2
        #expect(throws: RecordStoreError.unknownField(hostile, recordType: "Item")) { try store.fetch(sorted) }
        var negative = FetchRequest(entityName: "Item")
        negative.fetchLimit = -1
        #expect(throws: RecordStoreError.invalidQuery("fetchLimit, fetchOffset and fetchBatchSize must not be negative")) { try store.fetch(negative) }
        var huge = FetchRequest(entityName: "Item", sortDescriptors: [Sort("rank")])
        huge.fetchLimit = Int.max
        huge.fetchOffset = 10
        #expect(try store.fetch(huge).records.map(\.recordID.recordName) == ["item010", "item011"])
        huge.fetchOffset = Int.max
        #expect(try store.fetch(huge).records == [])
        #expect(try store.count(for: huge) == 0)
        try Self.expectIntact(store)
    }

    // MARK: - Cursors

    @Test(arguments: engines)
    func damagedCursorsAreRefusedWithTheExactProblem(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let other = try Self.store(engine)
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "title != %@", "'; DROP TABLE Item; --\u{0}"), sorts: [Sort("rank")])
        let first = try store.firstBatch(matching: query, resultsLimit: 5)
        let cursor = try #require(first.cursor)
        let bytes = try #require(Base64URL.decode(cursor.stringValue))
        let payloadLength = bytes.count - CursorSigner.signatureLength

        // Every bit of every byte, flipped: the version byte makes it malformed, the store
        // identifier foreign, anything else tampered.
        for position in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[position] ^= UInt8(1 << bit)
                let expected: QueryCursor.Problem = position == 0 ? .malformed : position < 17 ? .foreignStore : .tampered
                #expect(throws: RecordStoreError.invalidCursor(expected), "byte \(position) bit \(bit)") {
                    try store.nextBatch(continuingMatchFrom: QueryCursor(string: Base64URL.encode(flipped)))
                }
            }
        }
        // Truncated at every length: too short is malformed, otherwise the signature fails.
        for length in 0..<bytes.count {
            let truncated = Base64URL.encode(Array(bytes.prefix(length)))
            let expected: QueryCursor.Problem = length <= CursorSigner.signatureLength + 17 ? .malformed : .tampered
            #expect(throws: RecordStoreError.invalidCursor(expected), "length \(length)") {
                try store.nextBatch(continuingMatchFrom: QueryCursor(string: truncated))
            }
        }
        #expect(payloadLength > 17)
        // Appended bytes move the signature: tampered.
        #expect(throws: RecordStoreError.invalidCursor(.tampered)) {
            try store.nextBatch(continuingMatchFrom: QueryCursor(string: Base64URL.encode(bytes + [0])))
        }
        for text in ["", " ", "=", cursor.stringValue + "=", cursor.stringValue + "\u{0}", "'; DROP TABLE Item; --", String(repeating: "!", count: 1 << 20)] {
            #expect(throws: RecordStoreError.invalidCursor(.malformed), "\(text.prefix(40))") { try QueryCursor(string: text) }
        }
        // A megabyte of valid base64url: signed by no one.
        let megabyte = String(repeating: "AAAA", count: 1 << 18)
        #expect(throws: RecordStoreError.invalidCursor(.malformed)) { try store.nextBatch(continuingMatchFrom: QueryCursor(string: megabyte)) }
        let megabyteVersioned = Base64URL.encode([CursorPayload.version] + Array(repeating: 7, count: 786_000))
        #expect(throws: RecordStoreError.invalidCursor(.foreignStore)) {
            try store.nextBatch(continuingMatchFrom: QueryCursor(string: megabyteVersioned))
        }
        // Another store's cursor, even for the same query and data.
        let foreign = try #require(try other.firstBatch(matching: query, resultsLimit: 5).cursor)
        #expect(throws: RecordStoreError.invalidCursor(.foreignStore)) { try store.nextBatch(continuingMatchFrom: foreign) }
        #expect(throws: RecordStoreError.invalidCursor(.foreignStore)) { try store.query(of: foreign) }
        // The intact cursor continues exactly.
        let next = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 100)
        #expect(next.records.map(\.recordID.recordName) == (5..<12).map { String(format: "item%03d", $0) })
        // The largest limit reads everything (it once overflowed computing limit + 1).
        let everything = try store.firstBatch(matching: query, resultsLimit: Int.max)
        #expect(everything.records.count == 12)
        #expect(everything.cursor == nil)
        #expect(try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: Int.max).records.count == 7)
        try Self.expectIntact(store)
    }

    @Test(arguments: engines)
    func cursorsOfHostileZonesContinueThereAndNowhereElse(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let zone = ZoneID(zoneName: "' OR 1=1 --\u{1}\(Self.fromInvalidUTF8)")
        try store.createZone(zone)
        try store.save(Self.knownItems.map { item in
            var copy = Record(recordType: "Item", recordID: RecordID(recordName: item.recordID.recordName, zoneID: zone))
            copy.fields = item.fields
            return copy
        })
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "title != %@", "\u{0}\"'"), sorts: [Sort("rank", ascending: false)])
        let first = try store.firstBatch(matching: query, inZone: zone, resultsLimit: 10)
        let cursor = try #require(first.cursor)
        let (decoded, decodedZone) = try store.query(of: cursor)
        #expect(decoded == query)
        #expect(decodedZone == zone)
        let next = try store.nextBatch(continuingMatchFrom: cursor)
        #expect(next.records.map(\.recordID) == [RecordID(recordName: "item001", zoneID: zone), RecordID(recordName: "item000", zoneID: zone)])
        #expect(throws: RecordStoreError.invalidCursor(.zoneMismatch(cursor: zone.zoneName, given: ZoneID.default.zoneName))) {
            try store.checkCursor(cursor, continues: query)
        }
        try store.checkCursor(cursor, continues: query, inZone: zone)
        // Deleting the zone leaves the cursor nothing to continue.
        try store.deleteZone(zone)
        #expect(throws: RecordStoreError.zoneNotFound(zone)) { try store.nextBatch(continuingMatchFrom: cursor) }
        try Self.expectIntact(store)
    }
}

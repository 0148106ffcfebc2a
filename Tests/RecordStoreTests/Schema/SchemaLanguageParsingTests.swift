import TestSupport
import Testing
@testable import RecordStoreCore

/// CloudKit's schema language (issue #29): parsing every type, attribute, name form, comment,
/// role and grant.
@Suite("Schema language: parsing")
struct SchemaLanguageParsingTests {
    static let cities = """
        DEFINE SCHEMA

            CREATE ROLE Moderator;

            RECORD TYPE City (
        \(CKDBSystemFields.lines)
                name            STRING QUERYABLE SORTABLE SEARCHABLE,
                population      INT64 QUERYABLE SORTABLE,
                location        LOCATION QUERYABLE,
                alternatenames  LIST<STRING>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
        """

    @Test("The issue's City document: roles, system fields, fields with attributes, grants")
    func cityDocument() throws {
        let document = try CloudKitSchemaDocument(parsing: Self.cities)
        #expect(document.roles == ["Moderator"])
        #expect(document.recordTypes.count == 1)
        let city = document.recordTypes[0]
        #expect(city.name == "City")
        #expect(city.sourceLine == 5)
        #expect(city.systemFields.map(\.name) == ["___createTime", "___createdBy", "___etag", "___modTime", "___modifiedBy", "___recordID"])
        #expect(city.systemFields.map(\.isQueryable) == [false, false, false, false, false, true])
        #expect(city.userFields == [
            CloudKitSchemaField(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true),
            CloudKitSchemaField(name: "population", type: .int64, isQueryable: true, isSortable: true),
            CloudKitSchemaField(name: "location", type: .location, isQueryable: true),
            CloudKitSchemaField(name: "alternatenames", type: .list(.string)),
        ])
        #expect(city.field(named: "population")?.sourceLine == 13)
        #expect(city.grants == [
            CloudKitSchemaGrant(permissions: [.write], role: "_creator"),
            CloudKitSchemaGrant(permissions: [.create], role: "_icloud"),
            CloudKitSchemaGrant(permissions: [.read], role: "_world"),
        ])
        #expect(document.grantCount == 3)
    }

    @Test("Every primitive type, NUMBER, ENCRYPTED and lists")
    func everyType() throws {
        let document = try CloudKitSchemaDocument(parsing: """
            DEFINE SCHEMA
                RECORD TYPE AllTypes (
                    s STRING, i INT64, d DOUBLE, t TIMESTAMP, b BYTES, r REFERENCE, a ASSET, l LOCATION,
                    n NUMBER, ni NUMBER PREFERRED AS INT64, nd NUMBER PREFERRED AS DOUBLE,
                    es ENCRYPTED STRING, eb ENCRYPTED BYTES, ed ENCRYPTED DOUBLE, ei ENCRYPTED INT64,
                    el ENCRYPTED LOCATION, et ENCRYPTED TIMESTAMP,
                    ls LIST<STRING>, li LIST<INT64>, ld LIST<DOUBLE>, lt LIST<TIMESTAMP>, lb LIST<BYTES>,
                    lr LIST<REFERENCE>, la LIST<ASSET>, ll LIST<LOCATION>, les LIST<ENCRYPTED STRING>
                );
            """)
        let types = document.recordTypes[0].fields.map(\.type)
        #expect(types == [
            .string, .int64, .double, .timestamp, .bytes, .reference, .asset, .location,
            .number(preferredAs: nil), .number(preferredAs: .int64), .number(preferredAs: .double),
            .encrypted(.string), .encrypted(.bytes), .encrypted(.double), .encrypted(.int64),
            .encrypted(.location), .encrypted(.timestamp),
            .list(.string), .list(.int64), .list(.double), .list(.timestamp), .list(.bytes),
            .list(.reference), .list(.asset), .list(.location), .list(.encrypted(.string)),
        ])
        #expect(types.map(\.description) == [
            "STRING", "INT64", "DOUBLE", "TIMESTAMP", "BYTES", "REFERENCE", "ASSET", "LOCATION",
            "NUMBER", "NUMBER PREFERRED AS INT64", "NUMBER PREFERRED AS DOUBLE",
            "ENCRYPTED STRING", "ENCRYPTED BYTES", "ENCRYPTED DOUBLE", "ENCRYPTED INT64", "ENCRYPTED LOCATION", "ENCRYPTED TIMESTAMP",
            "LIST<STRING>", "LIST<INT64>", "LIST<DOUBLE>", "LIST<TIMESTAMP>", "LIST<BYTES>", "LIST<REFERENCE>", "LIST<ASSET>",
            "LIST<LOCATION>", "LIST<ENCRYPTED STRING>",
        ])
    }

    @Test("Attributes in any order; keywords in any case; several permissions in one grant")
    func attributesAndCase() throws {
        let document = try CloudKitSchemaDocument(parsing: """
            define schema
                create role DeptManager;
                Record Type Employee (
                    hiredate timestamp sortable queryable,
                    name String Searchable,
                    salary int64 QUERYABLE,
                    phones list<string> queryable,
                    grant write, create, read to DeptManager
                );
            """)
        let employee = document.recordTypes[0]
        #expect(employee.fields == [
            CloudKitSchemaField(name: "hiredate", type: .timestamp, isQueryable: true, isSortable: true),
            CloudKitSchemaField(name: "name", type: .string, isSearchable: true),
            CloudKitSchemaField(name: "salary", type: .int64, isQueryable: true),
            CloudKitSchemaField(name: "phones", type: .list(.string), isQueryable: true),
        ])
        #expect(employee.grants == [CloudKitSchemaGrant(permissions: [.write, .create, .read], role: "DeptManager")])
        #expect(document.roles == ["DeptManager"])
    }

    @Test("Quoted names: system fields, reserved words, keywords as bare names")
    func quotedNames() throws {
        let document = try CloudKitSchemaDocument(parsing: """
            DEFINE SCHEMA
                RECORD TYPE "grant" (
                    "___recordID" REFERENCE QUERYABLE,
                    "queryable" STRING,
                    list STRING,
                    string INT64,
                    "plain" DOUBLE
                );
            """)
        let type = document.recordTypes[0]
        #expect(type.name == "grant")
        #expect(type.fields.map(\.name) == ["___recordID", "queryable", "list", "string", "plain"])
        #expect(type.fields.map(\.isSystemField) == [true, false, false, false, false])
    }

    @Test("Comments of the three forms are skipped")
    func comments() throws {
        let document = try CloudKitSchemaDocument(parsing: """
            // A schema
            -- with comments
            DEFINE SCHEMA /* inline */
                /*
                 several lines; RECORD TYPE Hidden (x STRING);
                */
                RECORD TYPE Note ( -- after a parenthesis
                    body STRING, // after a comma
                    title STRING
                );
            -- at the end
            """)
        #expect(document.recordTypes.map(\.name) == ["Note"])
        #expect(document.recordTypes[0].fields.map(\.name) == ["body", "title"])
        #expect(document.recordTypes[0].field(named: "title")?.sourceLine == 9)
    }

    @Test("An empty schema, an empty record type, and several record types")
    func emptyParts() throws {
        #expect(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA") == CloudKitSchemaDocument())
        let document = try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE A (); RECORD TYPE B (x STRING);")
        #expect(document.recordTypes == [
            CloudKitSchemaRecordType(name: "A"),
            CloudKitSchemaRecordType(name: "B", fields: [CloudKitSchemaField(name: "x", type: .string)]),
        ])
    }
}

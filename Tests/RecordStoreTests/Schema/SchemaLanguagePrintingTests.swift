import Foundation
import TestSupport
import Testing
@testable import RecordStoreCore

/// CloudKit's schema language (issue #29): the canonical layout of `cktool export-schema`, and
/// parse → print → parse as a fixed point.
@Suite("Schema language: printing")
struct SchemaLanguagePrintingTests {
    @Test("The City document prints in cktool's layout: system fields first, attributes in cktool's order, grants last")
    func canonicalLayout() throws {
        let document = try CloudKitSchemaDocument(parsing: SchemaLanguageParsingTests.cities)
        #expect(document.ckdbText == """
            DEFINE SCHEMA

                CREATE ROLE Moderator;

                RECORD TYPE City (
            \(CKDBSystemFields.lines)
                    name            STRING QUERYABLE SEARCHABLE SORTABLE,
                    population      INT64 QUERYABLE SORTABLE,
                    location        LOCATION QUERYABLE,
                    alternatenames  LIST<STRING>,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

            """)
        #expect(document.description == document.ckdbText)
    }

    @Test("System fields move first in their fixed order; names that need quotes get them")
    func systemFieldsAndQuoting() {
        let document = CloudKitSchemaDocument(roles: ["Editors"], recordTypes: [
            CloudKitSchemaRecordType(name: "sortable", fields: [
                CloudKitSchemaField(name: "title", type: .string),
                CloudKitSchemaField(name: "___recordID", type: .reference, isQueryable: true),
                CloudKitSchemaField(name: "Grant", type: .number(preferredAs: .double)),
                CloudKitSchemaField(name: "___createTime", type: .timestamp, isQueryable: true, isSortable: true),
                CloudKitSchemaField(name: "secret", type: .encrypted(.bytes)),
            ], grants: [CloudKitSchemaGrant(permissions: [.write, .create, .read], role: "Editors")]),
            CloudKitSchemaRecordType(name: "Empty"),
        ])
        #expect(document.ckdbText == """
            DEFINE SCHEMA

                CREATE ROLE Editors;

                RECORD TYPE "sortable" (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___recordID"   REFERENCE QUERYABLE,
                    title           STRING,
                    "Grant"         NUMBER PREFERRED AS DOUBLE,
                    secret          ENCRYPTED BYTES,
                    GRANT WRITE, CREATE, READ TO Editors
                );

                RECORD TYPE Empty (
                );

            """)
    }

    @Test("An empty document prints DEFINE SCHEMA alone")
    func emptyDocument() {
        #expect(CloudKitSchemaDocument().ckdbText == "DEFINE SCHEMA\n")
    }

    @Test("parse → print → parse is a fixed point, and printing twice gives the same text")
    func fixedPoint() throws {
        let sources = [
            SchemaLanguageParsingTests.cities,
            """
            define schema
              create role A; create role "b c";
              record type T (-- comment
                "___etag" STRING QUERYABLE, z LIST<NUMBER PREFERRED AS INT64> QUERYABLE, "preferred" BYTES,
                x LIST<ENCRYPTED TIMESTAMP>, p ASSET, grant read to "b c", grant write, read to A);
              record type U ();
            """,
        ]
        for source in sources {
            let first = try CloudKitSchemaDocument(parsing: source)
            let printed = first.ckdbText
            let second = try CloudKitSchemaDocument(parsing: printed)
            #expect(second == first)
            #expect(second.ckdbText == printed)
        }
    }

    @Test("JSON: types as their schema-language text, sorted keys, no source lines; decodes back")
    func json() throws {
        let document = try CloudKitSchemaDocument(parsing: """
            DEFINE SCHEMA RECORD TYPE Tag ("___recordID" REFERENCE QUERYABLE, label LIST<STRING>, GRANT READ TO "_world");
            """)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(document), as: UTF8.self)
        #expect(text == #"{"recordTypes":[{"fields":[{"isQueryable":true,"isSearchable":false,"isSortable":false,"name":"___recordID","type":"REFERENCE"},{"isQueryable":false,"isSearchable":false,"isSortable":false,"name":"label","type":"LIST<STRING>"}],"grants":[{"permissions":["READ"],"role":"_world"}],"name":"Tag"}],"roles":[]}"#)
        #expect(try JSONDecoder().decode(CloudKitSchemaDocument.self, from: Data(text.utf8)) == document)
    }
}

import Foundation
import Testing
@testable import RecordStoreCore

/// CloudKit's schema language (issue #29): error messages name the line and column and what was
/// expected; hostile inputs neither crash nor hang.
@Suite("Schema language: errors and hostile input")
struct SchemaLanguageErrorTests {
    static func message(_ text: String) -> String? {
        do {
            _ = try CloudKitSchemaDocument(parsing: text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A misspelt type names its line and column and the types expected")
    func misspeltType() {
        let text = """
            DEFINE SCHEMA

                RECORD TYPE City (
                    "___recordID" REFERENCE QUERYABLE,
                    name          STRING,
                    population    INT64,
                    country       STRNG QUERYABLE
                );
            """
        #expect(Self.message(text) == "line 7, column 23: expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>), found 'STRNG'")
    }

    @Test("Exact messages for each kind of mistake", arguments: [
        ("", "line 1, column 1: expected 'DEFINE SCHEMA', found the end of the file"),
        ("   \n  ", "line 2, column 3: expected 'DEFINE SCHEMA', found the end of the file"),
        ("DEFINE", "line 1, column 7: expected 'SCHEMA' after 'DEFINE', found the end of the file"),
        ("DEFINE SCHEMA RECORD TYPE City (name STRING)", "line 1, column 45: expected ';' after the record type, found the end of the file"),
        ("DEFINE SCHEMA RECORD TYPE City (name STRING,)", "line 1, column 45: expected a field name or GRANT, found ')'"),
        ("DEFINE SCHEMA RECORD TYPE City (name STRING QUERYABLE QUERYABLE);", "line 1, column 55: QUERYABLE appears twice for field 'name'"),
        ("DEFINE SCHEMA RECORD TYPE \"City (name STRING);", "line 1, column 27: a name in double quotes is not closed before the end of the line"),
        ("DEFINE SCHEMA RECORD TYPE City (tags LIST<LIST<STRING>>);", "line 1, column 43: lists do not nest: LIST<...> holds a primitive type, found 'LIST'"),
        ("DEFINE SCHEMA RECORD TYPE City (tags LIST<STRING);", "line 1, column 49: expected '>' after the list's type, found ')'"),
        ("DEFINE SCHEMA RECORD TYPE City (queryable STRING);", "line 1, column 33: expected a field name or GRANT, found the reserved word 'queryable' (write it in double quotes to use it as a name)"),
        ("DEFINE SCHEMA RECORD TYPE City (___recordID REFERENCE);", "line 1, column 33: a name must start with a letter; write '___recordID' in double quotes (\"___recordID\") for a system name"),
        ("DEFINE SCHEMA RECORD TYPE City (\"___recordID\" STRING);", "line 1, column 47: system field '___recordID' has type REFERENCE, found STRING"),
        ("DEFINE SCHEMA RECORD TYPE City (count INT64 SEARCHABLE);", "line 1, column 45: SEARCHABLE is not allowed on field 'count' of type INT64 (only STRING fields are searchable)"),
        ("DEFINE SCHEMA RECORD TYPE City (where LOCATION SORTABLE);", "line 1, column 48: SORTABLE is not allowed on field 'where' of type LOCATION (sortable types: STRING, INT64, DOUBLE, TIMESTAMP, NUMBER)"),
        ("DEFINE SCHEMA RECORD TYPE City (tags LIST<STRING> SORTABLE);", "line 1, column 51: SORTABLE is not allowed on field 'tags' of type LIST<STRING> (sortable types: STRING, INT64, DOUBLE, TIMESTAMP, NUMBER)"),
        ("DEFINE SCHEMA RECORD TYPE City (photo ASSET QUERYABLE);", "line 1, column 45: QUERYABLE is not allowed on field 'photo' of type ASSET: assets and encrypted fields cannot be indexed"),
        ("DEFINE SCHEMA RECORD TYPE City (pin ENCRYPTED STRING QUERYABLE);", "line 1, column 54: QUERYABLE is not allowed on field 'pin' of type ENCRYPTED STRING: assets and encrypted fields cannot be indexed"),
        ("DEFINE SCHEMA RECORD TYPE City (pin ENCRYPTED REFERENCE);", "line 1, column 47: expected a type after ENCRYPTED (BYTES, STRING, DOUBLE, INT64, LOCATION, TIMESTAMP), found 'REFERENCE'"),
        ("DEFINE SCHEMA RECORD TYPE City (n NUMBER PREFERRED AS STRING);", "line 1, column 55: expected INT64 or DOUBLE after 'PREFERRED AS', found 'STRING'"),
        ("DEFINE SCHEMA RECORD TYPE City (name STRING, name INT64);", "line 1, column 46: field 'name' is defined twice in record type 'City'"),
        ("DEFINE SCHEMA RECORD TYPE A (); RECORD TYPE A ();", "line 1, column 33: record type 'A' is defined twice"),
        ("DEFINE SCHEMA CREATE ROLE R; CREATE ROLE R;", "line 1, column 30: role 'R' is created twice"),
        ("DEFINE SCHEMA RECORD TYPE City (GRANT READ \"_world\");", "line 1, column 44: expected ',' or 'TO' after the permission, found '\"_world\"'"),
        ("DEFINE SCHEMA RECORD TYPE City (GRANT DELETE TO \"_world\");", "line 1, column 39: expected a permission (READ, CREATE, WRITE), found 'DELETE'"),
        ("DEFINE SCHEMA TABLE City ();", "line 1, column 15: expected 'CREATE ROLE', 'RECORD TYPE' or the end of the file, found 'TABLE'"),
        ("DEFINE SCHEMA /* never closed", "line 1, column 15: a comment '/*' is not closed with '*/'"),
        ("DEFINE SCHEMA RECORD TYPE City (name STRING) ; @", "line 1, column 48: unexpected character '@'"),
        ("DEFINE SCHEMA RECORD TYPE \"\" ();", "line 1, column 27: a name in double quotes is empty"),
    ])
    func messages(text: String, expected: String) {
        #expect(Self.message(text) == expected)
    }

    @Test("Columns count Unicode scalars, so a name with accents does not shift them")
    func unicodeColumns() {
        #expect(Self.message("DEFINE SCHEMA RECORD TYPE \"Città\" (x BOOL);") == "line 1, column 38: expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>), found 'BOOL'")
    }

    @Test("10,000 record types parse and print in reasonable time")
    func hugeInput() throws {
        var text = "DEFINE SCHEMA\n"
        for index in 0..<10_000 {
            text += "    RECORD TYPE Type\(index) (\"___recordID\" REFERENCE QUERYABLE, name STRING QUERYABLE SORTABLE, tags LIST<STRING>, GRANT READ TO \"_world\");\n"
        }
        let clock = ContinuousClock()
        let start = clock.now
        let document = try CloudKitSchemaDocument(parsing: text)
        let printed = document.ckdbText
        #expect(document.recordTypes.count == 10_000)
        #expect(try CloudKitSchemaDocument(parsing: printed) == document)
        #expect(clock.now - start < .seconds(20))
    }

    @Test("Deep nesting and long runs of symbols fail at the first wrong token, without recursion")
    func deepNesting() {
        let lists = "DEFINE SCHEMA RECORD TYPE T (x " + String(repeating: "LIST<", count: 100_000) + "STRING" + String(repeating: ">", count: 100_000) + ");"
        #expect(Self.message(lists) == "line 1, column 37: lists do not nest: LIST<...> holds a primitive type, found 'LIST'")
        let parentheses = "DEFINE SCHEMA RECORD TYPE T " + String(repeating: "(", count: 100_000)
        #expect(Self.message(parentheses) == "line 1, column 30: expected a field name or GRANT, found '('")
        let comments = String(repeating: "/* ", count: 50_000)
        #expect(Self.message(comments) == "line 1, column 1: a comment '/*' is not closed with '*/'")
    }

    @Test("Arbitrary bytes and truncations of a valid document never crash")
    func truncationsAndNoise() {
        let source = SchemaLanguageParsingTests.cities
        let scalars = Array(source.unicodeScalars)
        for length in 0...scalars.count {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[0..<length])
            _ = Self.message(String(view))
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("DEFINESCHMARTYPLIST<>(),;\"/*- \n\u{0}é".unicodeScalars)
        for _ in 0..<2_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<80, using: &generator) {
                view.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            _ = Self.message(String(view))
        }
    }
}

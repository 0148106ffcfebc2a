import Foundation
import Testing
@testable import RecordStoreCore

/// Reading Core Data models (issue #30): a model bundle's current version, every attribute type
/// and its field type, relationships and fetch request templates exactly as written, and clear
/// refusals of what the store cannot represent.
@Suite("Core Data model: reading")
struct CoreDataModelTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let bundle = fixtures.appendingPathComponent("Company.xcdatamodeld").path

    static func current() throws -> CoreDataModel {
        try CoreDataModelReader.read(at: bundle)
    }

    /// A copy of the fixture bundle in a new temporary folder, for changing its versions.
    static func bundleCopy() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.copyItem(atPath: bundle, toPath: copy.path)
        return copy.path
    }

    static func error(readingAt path: String) -> CoreDataModelError? {
        do {
            _ = try CoreDataModelReader.read(at: path)
            return nil
        } catch {
            return error
        }
    }

    static func model(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>
        """
    }

    static func message(_ body: String) -> String? {
        do {
            _ = try CoreDataModel(parsing: model(body))
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: - Versions

    @Test("A model bundle is read at the version .xccurrentversion names")
    func currentVersion() throws {
        let model = try Self.current()
        #expect(model.versionName == "Company 2")
        #expect(model.versionIdentifier == "2")
        #expect(model.entities.map(\.name) == ["Department", "Employee", "Person", "Project"])
        #expect(model.configurations == [CoreDataConfiguration(name: "Cloud", isUsedWithCloudKit: true, entities: ["Department", "Employee", "Person", "Project"])])
    }

    @Test("A version's folder and its contents file are read directly")
    func versionFolderAndContentsFile() throws {
        let folder = Self.bundle + "/Company.xcdatamodel"
        let first = try CoreDataModelReader.read(at: folder)
        #expect(first.versionName == "Company")
        #expect(first.versionIdentifier == "1")
        #expect(first.entities.map(\.name) == ["Department", "Employee"])
        #expect(first.fetchRequestTemplates == [CoreDataFetchRequestTemplate(name: "HighEarners", entity: "Employee", predicateString: "salary > $MINIMUM")])
        let file = try CoreDataModelReader.read(at: folder + "/contents")
        #expect(file.versionName == nil)
        #expect(file.entities == first.entities)
    }

    @Test("Several versions and no .xccurrentversion is an error naming them; a single version needs none")
    func versionsWithoutCurrentVersionFile() throws {
        let copy = try Self.bundleCopy()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path) }
        try FileManager.default.removeItem(atPath: copy + "/.xccurrentversion")
        #expect(Self.error(readingAt: copy) == .version(
            bundle: copy,
            message: "2 versions (Company 2.xcdatamodel, Company.xcdatamodel) and no .xccurrentversion naming the current one; add it, or read one version's folder"))
        try FileManager.default.removeItem(atPath: copy + "/Company 2.xcdatamodel")
        #expect(try CoreDataModelReader.read(at: copy).versionName == "Company")
    }

    @Test("A current version that does not exist, a missing path and a compiled model are errors")
    func unreadableBundles() throws {
        let copy = try Self.bundleCopy()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path) }
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Company 3.xcdatamodel</string></dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: copy + "/.xccurrentversion"))
        #expect(Self.error(readingAt: copy) == .version(
            bundle: copy, message: ".xccurrentversion names 'Company 3.xcdatamodel', which the bundle does not have (versions: Company 2.xcdatamodel, Company.xcdatamodel)"))
        #expect(Self.error(readingAt: copy + "/Missing.xcdatamodel")?.description == "\(copy)/Missing.xcdatamodel: no such file or folder")
        let compiled = copy + "/Company.xcdatamodel/contents"
        try Data("bplist00\u{1}".utf8).write(to: URL(fileURLWithPath: compiled))
        #expect(Self.error(readingAt: compiled) == .unreadable(
            path: compiled, reason: "a binary property list, as compiled models (.mom, .momd) are; read the source model (.xcdatamodeld) instead"))
    }

    // MARK: - Attributes and their fields

    @Test("Every attribute is read with its type, optionality, default, index and settings")
    func attributes() throws {
        let model = try Self.current()
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.representedClassName == "Employee")
        #expect(employee.parentEntity == "Person")
        #expect(!employee.isAbstract)
        #expect(model.entity(named: "Person")?.isAbstract == true)
        #expect(employee.attributes == [
            CoreDataAttribute(name: "age", type: .integer16, defaultValueString: "0", minValueString: "16", maxValueString: "99"),
            CoreDataAttribute(name: "badgeNumber", type: .integer64, defaultValueString: "0"),
            CoreDataAttribute(name: "email", type: .string, regularExpressionString: "[^@]+@[^@]+"),
            CoreDataAttribute(name: "employeeNumber", type: .integer32, isOptional: false, defaultValueString: "0", isIndexed: true),
            CoreDataAttribute(name: "hireDate", type: .date, isOptional: false, defaultDateTimeInterval: 694_224_000),
            CoreDataAttribute(name: "homepage", type: .uri),
            CoreDataAttribute(name: "identifier", type: .uuid, isOptional: false),
            CoreDataAttribute(name: "isActive", type: .boolean, isOptional: false, defaultValueString: "YES"),
            CoreDataAttribute(name: "photo", type: .binary),
            CoreDataAttribute(name: "rating", type: .float, defaultValueString: "0.0"),
            CoreDataAttribute(name: "salary", type: .double, defaultValueString: "0.0"),
            CoreDataAttribute(name: "scratch", type: .string, isTransient: true),
            CoreDataAttribute(name: "skills", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData", customClassName: "[String]"),
        ])
        #expect(employee.attributes.filter(\.isOpaqueBytes).map(\.name) == ["skills"])
        #expect(model.attributes(of: "Employee").prefix(2).map(\.name) == ["birthDate", "name"])
        #expect(model.entity(named: "Person")?.attribute(named: "name") == CoreDataAttribute(name: "name", type: .string, isOptional: false, defaultValueString: "Unnamed"))
        #expect(model.entity(named: "Department")?.attribute(named: "budget")?.type == .decimal)
    }

    @Test("Each attribute type maps to the field type that keeps its values", arguments: [
        ("Integer 16", FieldType.int64), ("Integer 32", .int64), ("Integer 64", .int64),
        ("Decimal", .double), ("Double", .double), ("Float", .double),
        ("String", .string), ("URI", .string), ("UUID", .string),
        ("Boolean", .bool), ("Date", .date), ("Binary", .bytes), ("Transformable", .bytes),
    ])
    func attributeTypeMapping(typeName: String, expected: FieldType) throws {
        #expect(CoreDataAttributeType(rawValue: typeName)?.storeType == expected)
        let model = try CoreDataModel(parsing: Self.model(#"<entity name="E"><attribute name="a" optional="YES" attributeType="\#(typeName)"/></entity>"#))
        #expect(model.recordTypeSchemas() == [RecordTypeSchema(name: "E", fields: [FieldSchema(name: "a", type: expected, isQueryable: false, isSortable: false)])])
    }

    @Test("Record types: one per entity with its parent and abstractness, inherited attributes first, indexed ones queryable and sortable, transients left out, uniqueness constraints kept")
    func recordTypes() throws {
        func field(_ name: String, _ type: FieldType, indexed: Bool = false, _ rules: FieldValidation? = nil) -> FieldSchema {
            FieldSchema(name: name, type: type, isQueryable: indexed, isSortable: indexed, validation: rules)
        }
        let required = FieldValidation(isRequired: true)
        let zero = FieldValidation(defaultValue: .number(0))
        // A relationship stored in a field (a to-one, one side of a many-to-many) has a queryable reference field.
        func reference(_ name: String, _ type: FieldType = .reference) -> FieldSchema {
            FieldSchema(name: name, type: type, isQueryable: true, isSortable: false)
        }
        #expect(try Self.current().recordTypeSchemas() == [
            RecordTypeSchema(
                name: "Department",
                fields: [
                    field("budget", .double, zero), field("latitude", .double, indexed: true, zero), field("longitude", .double, indexed: true, zero),
                    field("name", .string, indexed: true, required),
                ],
                relationships: [.toMany("employees", destination: "Employee", inverse: "department", deletionRule: .cascade)]),
            RecordTypeSchema(
                name: "Employee",
                fields: [
                    field("birthDate", .date), field("name", .string, indexed: true, FieldValidation(isRequired: true, defaultValue: .string("Unnamed"))),
                    field("age", .int64, indexed: true, FieldValidation(defaultValue: .integer(0), minimumValue: 16, maximumValue: 99)),
                    field("badgeNumber", .int64, FieldValidation(defaultValue: .integer(0))), field("email", .string, FieldValidation(pattern: "[^@]+@[^@]+")),
                    field("employeeNumber", .int64, indexed: true, FieldValidation(isRequired: true, defaultValue: .integer(0))),
                    field("hireDate", .date, indexed: true, FieldValidation(isRequired: true, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 694_224_000)))),
                    field("homepage", .string), field("identifier", .string, required),
                    field("isActive", .bool, FieldValidation(isRequired: true, defaultValue: .boolean(true))), field("photo", .bytes), field("rating", .double, zero),
                    field("salary", .double, indexed: true, zero), field("skills", .bytes),
                    reference("department"), reference("manager"), reference("projects", .list(.reference)),
                ],
                relationships: [
                    .toOne("department", destination: "Department"),
                    .toOne("manager", destination: "Employee"),
                    // Many-to-many: stored on the side whose entity name sorts first.
                    .referenceList("projects", destination: "Project", deletionRule: .noAction, isOrdered: true),
                    .toMany("reports", destination: "Employee", inverse: "manager", deletionRule: .deny),
                ],
                parentType: "Person", uniquenessConstraints: [["identifier"]]),
            // The abstract parent is a record type too (fetched, it gives its sub-entities' records).
            RecordTypeSchema(
                name: "Person",
                fields: [field("birthDate", .date), field("name", .string, indexed: true, FieldValidation(isRequired: true, defaultValue: .string("Unnamed")))],
                isAbstract: true),
            RecordTypeSchema(
                name: "Project", fields: [field("title", .string, required)],
                relationships: [
                    RelationshipSchema(
                        name: "members", destination: "Employee", kind: .toMany(inverse: "projects"), minimumCount: 1, maximumCount: 20,
                        isRequired: true),
                ]),
        ])
    }

    @Test("Fetch indexes, uniqueness constraints and the older compound indexes are read")
    func indexes() throws {
        let model = try Self.current()
        #expect(model.entity(named: "Employee")?.fetchIndexes == [
            CoreDataFetchIndex(name: "byHireDate", elements: [CoreDataFetchIndexElement(property: "hireDate", kind: .binary, isAscending: false)]),
            CoreDataFetchIndex(name: "bySalaryAndAge", elements: [CoreDataFetchIndexElement(property: "salary"), CoreDataFetchIndexElement(property: "age")]),
        ])
        #expect(model.entity(named: "Department")?.fetchIndexes == [
            CoreDataFetchIndex(name: "byLocation", elements: [
                CoreDataFetchIndexElement(property: "latitude", kind: .rTree), CoreDataFetchIndexElement(property: "longitude", kind: .rTree),
            ]),
        ])
        #expect(model.entity(named: "Employee")?.uniquenessConstraints == [["identifier"]])
        let older = try CoreDataModel(parsing: Self.model("""
            <entity name="E" syncable="YES">
                <attribute name="a" optional="YES" attributeType="String" syncable="YES"/>
                <attribute name="b" optional="YES" attributeType="Integer 32" defaultValueString="0" syncable="YES"/>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="a"/>
                        <index value="b"/>
                    </compoundIndex>
                </compoundIndexes>
            </entity>
            """))
        #expect(older.entities[0].fetchIndexes == [
            CoreDataFetchIndex(name: "compoundIndex1", elements: [CoreDataFetchIndexElement(property: "a"), CoreDataFetchIndexElement(property: "b")]),
        ])
        #expect(older.recordTypeSchemas()[0].fields.map(\.isQueryable) == [true, true])
    }

    // MARK: - Relationships and templates

    @Test("Relationships are read with every property and every deletion rule")
    func relationships() throws {
        let model = try Self.current()
        #expect(model.entity(named: "Employee")?.relationships == [
            CoreDataRelationship(name: "department", destinationEntity: "Department", inverseName: "employees", inverseEntity: "Department", deletionRule: .nullify, maxCount: 1),
            CoreDataRelationship(name: "manager", destinationEntity: "Employee", inverseName: "reports", inverseEntity: "Employee", deletionRule: .nullify, maxCount: 1),
            CoreDataRelationship(name: "projects", destinationEntity: "Project", isToMany: true, isOrdered: true, inverseName: "members", inverseEntity: "Project", deletionRule: .noAction),
            CoreDataRelationship(name: "reports", destinationEntity: "Employee", isToMany: true, inverseName: "manager", inverseEntity: "Employee", deletionRule: .deny),
        ])
        #expect(model.entity(named: "Department")?.relationships == [
            CoreDataRelationship(name: "employees", destinationEntity: "Employee", isToMany: true, inverseName: "department", inverseEntity: "Employee", deletionRule: .cascade),
        ])
        #expect(model.entity(named: "Project")?.relationships == [
            CoreDataRelationship(
                name: "members", destinationEntity: "Employee", isToMany: true, inverseName: "projects", inverseEntity: "Employee",
                deletionRule: .nullify, minCount: 1, maxCount: 20, isOptional: false),
        ])
        #expect(Set(model.entities.flatMap { $0.relationships.map(\.deletionRule) }) == Set(CoreDataDeletionRule.allCases))
    }

    @Test("Fetch request templates and fetched properties keep their predicates exactly, references replaced")
    func templates() throws {
        let model = try Self.current()
        #expect(model.fetchRequestTemplates == [
            CoreDataFetchRequestTemplate(name: "EmployeesInDepartment", entity: "Employee", predicateString: "department.name == $NAME", fetchBatchSize: 20),
            CoreDataFetchRequestTemplate(name: "HighEarners", entity: "Employee", predicateString: "salary > $MINIMUM", fetchLimit: 100, resultType: "2", includesSubentities: true),
            CoreDataFetchRequestTemplate(name: "NamedJuniors", entity: "Employee", predicateString: #"age < $MAXIMUM_AGE AND name != "Unnamed" AND email ENDSWITH '&co'"#),
        ])
        #expect(model.fetchRequestTemplate(named: "HighEarners")?.predicateString == "salary > $MINIMUM")
        #expect(model.entity(named: "Employee")?.fetchedProperties == [
            CoreDataFetchedProperty(name: "colleagues", fetchRequest: CoreDataFetchRequestTemplate(
                name: "fetchedPropertyFetchRequest", entity: "Employee", predicateString: "department == $FETCH_SOURCE.department AND self != $FETCH_SOURCE")),
        ])
    }

    // MARK: - Errors

    @Test("Malformed XML names the file, line and column")
    func xmlErrors() throws {
        #expect(Self.message(#"<entity name="E" predicate="a < b"/>"#) == "contents:3:31: malformed XML: '<' is not allowed in an attribute value; write '&lt;'")
        let copy = try Self.bundleCopy()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path) }
        let contents = copy + "/Company 2.xcdatamodel/contents"
        try Data(Self.model("<entity name=\"E\">\n</model>").utf8).write(to: URL(fileURLWithPath: contents))
        #expect(Self.error(readingAt: copy) == .xml(file: contents, line: 4, column: 9, message: "the end tag does not close '<entity>' (line 3)"))
        #expect(Self.error(readingAt: copy)?.description == "\(contents):4:9: malformed XML: the end tag does not close '<entity>' (line 3)")
    }

    @Test("Constructs the store cannot represent are refused, and inconsistent models are errors", arguments: [
        (#"<entity name="E"><attribute name="a" attributeType="Composite"/></entity>"#,
         "contents:3: not supported: attribute 'a' is a composite attribute: the store has no field type that keeps a composite value"),
        (#"<compositeAttribute name="Address"><attribute name="city" attributeType="String"/></compositeAttribute>"#,
         "contents:3: not supported: composite attribute type 'Address': the store has no field type that keeps a composite value"),
        (#"<entity name="E"><attribute name="a" attributeType="Object ID"/></entity>"#,
         "contents:3: not supported: attribute 'a' is of type 'Object ID': the store has no field type for Core Data object IDs"),
        (#"<entity name="E"><attribute name="n" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/></entity>"#,
         "contents:3: not supported: attribute 'n' is derived (items.@count): Core Data computes it on save, and the store cannot"),
        (#"<entity name="E"><futureElement/></entity>"#,
         "contents:3: not supported: unknown element <futureElement> in entity 'E'"),
        (#"<futureElement/>"#,
         "contents:3: not supported: unknown element <futureElement> in <model>"),
        (#"<entity name="E" futureFlag="YES"/>"#,
         "contents:3: not supported: unknown attribute 'futureFlag' on <entity> 'E'; it may change the model's meaning, so it is refused rather than ignored"),
        (#"<entity name="E"><attribute name="a" attributeType="String"/><fetchIndex name="byLower"><fetchIndexElement expression="lowercase:(a)" expressionType="String" type="Binary" order="ascending"/></fetchIndex></entity>"#,
         "contents:3: not supported: fetch index 'byLower' indexes an expression (lowercase:(a)); only properties can be indexed"),
        (#"<entity name="E"><attribute name="a" attributeType="Money"/></entity>"#,
         "contents:3: attribute 'a' has the unknown type 'Money'; expected one of 'Integer 16', 'Integer 32', 'Integer 64', 'Decimal', 'Double', 'Float', 'String', 'Boolean', 'Date', 'Binary', 'UUID', 'URI', 'Transformable', 'Undefined'"),
        (#"<entity name="E"><attribute name="a" attributeType="Undefined"/></entity>"#,
         "contents:3: attribute 'a' is of type 'Undefined' but not transient; only transient attributes may be undefined"),
        (#"<entity name="E"><attribute name="a" optional="yes" attributeType="String"/></entity>"#,
         "contents:3: 'optional' on <attribute> 'a' is 'yes'; expected YES or NO"),
        (#"<entity/>"#,
         "contents:3: <entity> has no 'name'"),
        (#"<entity name="E" parentEntity="Missing"/>"#,
         "contents:3: entity 'E' has the parent entity 'Missing', which the model does not have"),
        ("<entity name=\"A\" parentEntity=\"B\"/>\n<entity name=\"B\" parentEntity=\"A\"/>",
         "contents:3: entity 'A' inherits from itself (A → B → A)"),
        ("<entity name=\"P\"><attribute name=\"a\" attributeType=\"String\"/></entity>\n<entity name=\"E\" parentEntity=\"P\"><attribute name=\"a\" attributeType=\"String\"/></entity>",
         "contents:4: entity 'E' declares 'a', which it already inherits from 'P'"),
        ("<entity name=\"E\"/>\n<entity name=\"E\"/>",
         "contents:4: a second entity named 'E' (the first is on line 3)"),
        (#"<entity name="E"><relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/></entity>"#,
         "contents:3: relationship 'r' of entity 'E' leads to the entity 'Nowhere', which the model does not have"),
        (#"<entity name="E"><relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="E" inverseName="back" inverseEntity="E"/></entity>"#,
         "contents:3: relationship 'r' of entity 'E' has the inverse 'back', which entity 'E' does not have"),
        (#"<entity name="E"><relationship name="r" deletionRule="Delete" destinationEntity="E"/></entity>"#,
         "contents:3: relationship 'r' has the unknown deletion rule 'Delete'; expected one of 'Nullify', 'Cascade', 'Deny', 'No Action'"),
        (#"<entity name="E"><fetchIndex name="byX"><fetchIndexElement property="x" type="Binary" order="ascending"/></fetchIndex></entity>"#,
         "contents:3: fetch index 'byX' of entity 'E' names 'x', which the entity does not have"),
        (#"<fetchRequest name="T" entity="Nope" predicateString="a == 1"/>"#,
         "contents:3: fetch request template 'T' fetches the entity 'Nope', which the model does not have"),
    ])
    func refusals(body: String, expected: String) {
        #expect(Self.message(body) == expected)
    }

    @Test("A document that is not a model, and a model declaring a document type, are refused")
    func notAModel() {
        #expect(throws: CoreDataModelError.invalid(file: "contents", line: 1, message: "the root element is <plist>; a Core Data model's contents file has <model>")) {
            try CoreDataModel(parsing: "<plist/>")
        }
        #expect(throws: CoreDataModelError.xml(file: "contents", line: 1, column: 1, message: "a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read")) {
            try CoreDataModel(parsing: "<!DOCTYPE model><model/>")
        }
    }
}

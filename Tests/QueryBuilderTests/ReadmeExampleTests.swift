import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// The model of docs/QueryBuilder.md, as written there.
struct Entity: Queryable, Identifiable {
    var id: String
    var name: String
    var department: String
    var quantity: Int
    var date: Date

    enum Attribute: CaseIterable {
        case id, name, department, quantity, date
    }

    static var attributeKeyPaths: [PartialKeyPath<Entity>: Attribute] {
        [\.id: .id, \.name: .name, \.department: .department, \.quantity: .quantity, \.date: .date]
    }
}

/// The README's builder examples run as written, on both engines.
@Suite("README examples")
struct ReadmeExampleTests {
    @Test(arguments: TestEngine.allCases)
    func builderExamplesRunAsWritten(engine: TestEngine) throws {
        let context = ModelContext(store: try engine.makeStore())
        try context.insert(Entity(id: "1", name: "Alice", department: "Sales", quantity: 1, date: .now))
        try context.insert(Entity(id: "2", name: "Bob", department: "Sales", quantity: 3, date: .now))
        try context.save()

        let byFormat = try Entity.query(in: context)
            .where("quantity == 1")
            .order(by: "date")
            .all()
        #expect(byFormat.map(\.name) == ["Alice"])

        let byAttributes = try Entity.query(in: context)
            .where([.quantity: 1])
            .order(by: .date)
            .all()
        #expect(byAttributes.map(\.name) == ["Alice"])

        let grouped = try Entity.query(in: context).where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob")
        #expect(grouped.predicate.predicateFormat == #"(quantity == 1 AND name == "Alice") OR name == "Bob""#)
        #expect(try grouped.order(by: "department").order(by: "name").all().map(\.name) == ["Alice", "Bob"])
        #expect(try Entity.query(in: context).where(\.name, .contains("li", .caseInsensitive)).all().map(\.id) == ["1"])
        #expect(try Entity.query(in: context).where([.quantity: 1...3]).order(by: "quantity", .descending).all().map(\.id) == ["2", "1"])

        let quantitySum: Int = try Entity.query(in: context).sum(\.quantity)
        #expect(quantitySum == 4)
        #expect(try Entity.query(in: context).average(.quantity) == 2.0)
        #expect(try Entity.query(in: context).max("name") == .string("Bob"))
        #expect(try Entity.query(in: context).group(by: .department) == [GroupCount(values: ["Sales"], count: 2)])

        let request = try Entity.query(in: context)
            .where("quantity == 1").or("name == %@", "Bob")
            .order(by: "name")
            .fetchRequest
        #expect(request.predicate?.predicateFormat == #"quantity == 1 OR name == "Bob""#)
        #expect(try context.store.fetch(request).records.count == 2)

        let alice = try Entity.query(in: context)
            .where([.name: "Alice", .department: "Sales", .quantity: 1])
            .where(\.id == "1")
            .firstOrInsert()
        #expect(alice.id == "1")
        #expect(context.hasChanges == false)
        #expect(try Entity.query(in: context).exists("1") == true)
        #expect(try Entity.query(in: context).fetch("1")?.name == "Alice")

        var bob = try #require(try Entity.query(in: context).fetch("2"))
        bob.quantity = 4
        try context.update(bob)
        #expect(try Entity.query(in: context).where([.quantity: 4]).count() == 1)
        try context.save()
        #expect(try Entity.query(in: ModelContext(store: context.store)).where([.quantity: 4]).count() == 1)
    }

    @Test(arguments: TestEngine.allCases)
    func streamExampleRunsAsWritten(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try context.insert(Entity(id: "1", name: "Alice", department: "Sales", quantity: 1, date: .now))
        try context.insert(Entity(id: "2", name: "Bob", department: "Sales", quantity: 3, date: .now))
        try await context.save()
        var printed: [String] = []
        for try await entity in Entity.query(in: context).order(by: .date).stream(batchSize: 500) {
            printed.append(entity.name)
        }
        #expect(Set(printed) == ["Alice", "Bob"])
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// Typed models walking relationships (issue #30, item 6): `#Predicate` through references,
/// to-manys declared by models, prefetching, and live queries that follow related records,
/// on every engine.
@Suite("Model relationships", .timeLimit(.minutes(10)))
struct ModelRelationshipTests {
    @Test func predicatesThroughReferencesConvertToWalkedKeyPaths() throws {
        #expect(try FormatPredicate(#Predicate<Order> { $0.customer?.name == "Alice" }).predicateFormat == #"customer.name == "Alice""#)
        #expect(try FormatPredicate(#Predicate<Order> { $0.customer?.city != "Paris" && $0.total > 50 }).predicateFormat
            == #"customer.city != "Paris" AND total > 50"#)
        #expect(try FormatPredicate(#Predicate<Delivery> { $0.order.customer?.city == "Lyon" }).predicateFormat
            == #"order.customer.city == "Lyon""#)
        #expect(try FormatPredicate(#Predicate<Delivery> { $0.order.total == 120 }).predicateFormat == "order.total == 120")
        // A property of the target outside its field table is named in the error.
        #expect(throws: PredicateConversionError.self) { try FormatPredicate(#Predicate<Order> { $0.customer?.id == "alice" }) }
    }

    @Test(arguments: TestEngine.allCases)
    func predicatesWalkToOnesInTheStore(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        let alices = try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.name == "Alice" }).order(by: "total").all()
        #expect(alices.map(\.id) == ["o2", "o1"])
        let notParis = try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.city != "Paris" }).order(by: "total").all()
        // A nil and a dangling customer read as nil, which is not "Paris".
        #expect(notParis.map(\.id) == ["o5", "o4", "o3"])
        if engine != .memory {
            let plan = try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.name == "Alice" }).explain()
            #expect(plan.residual == nil || plan.residual == "")
            #expect(plan.sql.contains(#""Customer""#))
        }
    }

    @Test(arguments: TestEngine.allCases)
    func modelsFilterOnTheirToManys(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        #expect(try await Customer.query(in: context).where("ANY orders.total > 100").order(by: "name").all().map(\.id) == ["alice", "bob"])
        #expect(try await Customer.query(in: context).where("orders.@count == 0").all().map(\.id) == ["carol"])
        #expect(try await Customer.query(in: context).where("orders.@sum.total == 160").all().map(\.id) == ["alice"])
        #expect(try await Customer.query(in: context).where("SUBQUERY(orders, $o, $o.total < 50).@count > 0").all().map(\.id) == ["alice"])
        // The schema holds the declared relationships and the inverse's reference field.
        let schema = try #require(try await context.store.schema(for: "Customer"))
        #expect(schema.relationship(named: "orders")?.kind == .toMany(inverse: "customer"))
        #expect(try await context.store.schema(for: "Order")?.field(named: "customer")?.type == .reference)
        // Defining them again changes nothing.
        try await context.defineRelationships(of: [Customer.self, Order.self])
        #expect(try await context.store.schema(for: "Customer") == schema)
        // The cascade of the to-many applies to models too.
        try context.delete(Customer(id: "alice", name: "Alice", city: "Paris"))
        try await context.save()
        #expect(try await Order.query(in: context).order(by: "total").all().map(\.id) == ["o5", "o4", "o3"])
    }

    @Test(arguments: TestEngine.allCases)
    func pendingModelsWalkThroughPendingRelatedModels(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        // Unsaved: a new customer with an order, an order of a stored customer, and Bob deleted.
        let dana = Customer(id: "dana", name: "Dana", city: "Nice")
        try context.insert(dana)
        try context.insert(Order(id: "o6", total: 60, customer: RecordReference(to: dana)))
        try context.insert(Order(id: "o7", total: 70, customer: RecordReference(recordName: "alice")))
        try context.insert(Order(id: "o8", total: 80, customer: RecordReference(recordName: "bob")))
        try context.delete(Customer(id: "bob", name: "Bob", city: "Lyon"))
        let inNice = try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.city == "Nice" }).all()
        #expect(inNice.map(\.id) == ["o6"])
        let alices = try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.name == "Alice" }).order(by: "total").all()
        #expect(alices.map(\.id) == ["o2", "o7", "o1"])
        // The pending order's customer is deleted in the context: it reads as nil.
        let withoutCustomer = try await Order.query(in: context).where("customer.name == nil").order(by: "total").all()
        #expect(withoutCustomer.map(\.id) == ["o5", "o4", "o8"])
        #expect(try await Order.query(in: context).where("customer.city == 'Nice' OR customer.name == 'Alice'").count() == 4)
        // A pending customer's to-many reaches pending members (Dana's o6); stored customers are
        // matched by the store on what is stored (Alice), and Bob is deleted in the context.
        let busy = try await Customer.query(in: context).where("orders.@count >= 1").order(by: "name").all()
        #expect(busy.map(\.id) == ["alice", "dana"])
        let pendingDana = try await Customer.query(in: context).where("ANY orders.total == 60").all()
        #expect(pendingDana.map(\.id) == ["dana"])
        // Streams and live queries merge the same pending matches.
        var streamed: [String] = []
        for try await order in try Order.query(in: context).where(#Predicate<Order> { $0.customer?.city == "Nice" }).stream() { streamed.append(order.id) }
        #expect(streamed == ["o6"])
        var live = try Order.query(in: context).where(#Predicate<Order> { $0.customer?.name == "Alice" }).order(by: "total").observe().makeAsyncIterator()
        #expect(try await live.next()?.models.map(\.id) == ["o2", "o7", "o1"])
        context.rollback()
        #expect(try await Order.query(in: context).where(#Predicate<Order> { $0.customer?.name == "Alice" }).order(by: "total").all().map(\.id) == ["o2", "o1"])
    }

    @Test(arguments: TestEngine.allCases)
    func queriesPrefetchTheirReferences(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        let plain = try await Order.query(in: context).order(by: "total").all()
        #expect(plain.map { $0.customer?.target?.name } == [nil, nil, nil, nil, nil])
        let prefetched = try await Order.query(in: context).order(by: "total").prefetching("customer").all()
        #expect(prefetched.map(\.id) == ["o5", "o2", "o4", "o1", "o3"])
        // o5's customer does not exist and o4 has none.
        #expect(prefetched.map { $0.customer?.name } == [nil, "Alice", nil, "Alice", "Bob"])
        #expect(prefetched[1].customer?.target == Customer(id: "alice", name: "Alice", city: "Paris"))
        // A prefetched reference is still the same reference.
        #expect(prefetched.map(\.customer) == plain.map(\.customer))
        // A stream prefetches each batch it reads, and the pending records it merges in.
        var streamed: [String?] = []
        for try await order in Order.query(in: context).order(by: "total").prefetching("customer").stream(batchSize: 2) {
            streamed.append(order.customer?.name)
        }
        #expect(streamed == [nil, "Alice", nil, "Alice", "Bob"])
        try context.insert(Order(id: "o7", total: 50, customer: RecordReference(recordName: "bob")))
        var merged: [String] = []
        for try await order in Order.query(in: context).order(by: "total").prefetching("customer").stream(batchSize: 2) {
            merged.append("\(order.id):\(order.customer?.name ?? "-")")
        }
        #expect(merged == ["o5:-", "o2:Alice", "o7:Bob", "o4:-", "o1:Alice", "o3:Bob"])
        context.rollback()
        // A name that is no relationship is an error with a suggestion.
        await #expect(throws: RecordStoreError.unknownField("custmer", recordType: "Order", suggestions: ["customer"])) {
            _ = try await Order.query(in: context).prefetching("custmer").all()
        }
        await #expect(throws: RecordStoreError.notARelationship(field: "total", recordType: "Order", keyPath: "total")) {
            _ = try await Order.query(in: context).prefetching("total").all()
        }
    }

    @Test(arguments: TestEngine.allCases)
    func prefetchingFollowsOnlyTheKeyPathsAskedFor(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await context.defineRelationships(of: [Staff.self])
        // A cycle: ada manages bea, bea manages ada; cem is managed by bea.
        try context.insert(Staff(id: "ada", name: "Ada", manager: RecordReference(recordName: "bea")))
        try context.insert(Staff(id: "bea", name: "Bea", manager: RecordReference(recordName: "ada")))
        try context.insert(Staff(id: "cem", name: "Cem", manager: RecordReference(recordName: "bea")))
        try await context.save()
        let cem = try #require(try await Staff.query(in: context).where("name == 'Cem'").prefetching("manager.manager").first())
        #expect(cem.manager?.name == "Bea")
        #expect(cem.manager?.target?.manager?.name == "Ada")
        // Two levels were asked for: the third is not attached.
        #expect(cem.manager?.target?.manager?.target?.manager?.target == nil)
        #expect(cem.manager?.target?.manager?.target?.manager?.recordName == "bea")
    }

    @Test(arguments: TestEngine.allCases)
    func theStorePrefetchesToManysInOneReadPerRelationship(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        var request = FetchRequest(entityName: "Customer", sortDescriptors: [Sort("name")])
        request.relationshipKeyPathsForPrefetching = ["orders"]
        let fetched = try await context.store.fetchPrefetched(request)
        #expect(fetched.records.map(\.recordID.recordName) == ["alice", "bob", "carol"])
        #expect(fetched.records.map { fetched.related.records(through: "orders", of: $0).map(\.recordID.recordName) } == [["o1", "o2"], ["o3"], []])
        #expect(fetched.related.recordsByID.count == 3)
    }

    @Test(arguments: TestEngine.allCases)
    func liveQueriesFollowRelatedRecords(engine: TestEngine) async throws {
        let context = ModelContext(store: try engine.makeStore())
        try await Task { try context.insertCustomersAndOrders() }.value
        let query = try Order.query(in: context).where(#Predicate<Order> { $0.customer?.city == "Paris" }).order(by: "total")
        var iterator = query.observe().makeAsyncIterator()
        #expect(try await iterator.next()?.models.map(\.id) == ["o2", "o1"])
        // Bob moves to Paris: his order joins, though no order changed.
        let writer = ModelContext(store: context.store)
        try await writer.update(Customer(id: "bob", name: "Bob", city: "Paris"))
        try await writer.save()
        #expect(try await iterator.next()?.models.map(\.id) == ["o2", "o1", "o3"])
        // Alice leaves Paris: hers leave.
        try await writer.update(Customer(id: "alice", name: "Alice", city: "Nice"))
        try await writer.save()
        #expect(try await iterator.next()?.models.map(\.id) == ["o3"])
        // The store's own observation follows the inverse to-many the same way.
        let specification = try RecordQuery(recordType: "Customer", predicate: FormatPredicate(format: "ANY orders.total > 200"))
        var storeIterator = context.store.observe(specification).makeAsyncIterator()
        #expect(try await storeIterator.next()?.records.map(\.recordID.recordName) == ["bob"])
        try writer.insert(Order(id: "o6", total: 250, customer: RecordReference(recordName: "carol")))
        try await writer.save()
        #expect(try await storeIterator.next()?.records.map(\.recordID.recordName) == ["bob", "carol"])
    }
}

import QueryBuilder
import RecordStore

/// Customers, their orders (a to-one `customer`, and the customers' to-many `orders` through it)
/// and employees with managers (a to-one of a type to itself), for the relationship tests.
struct Customer: RelationshipModel, Queryable, Identifiable, Equatable {
    var id: String
    var name: String
    var city: String

    static var relationships: [RelationshipSchema] {
        [.toMany("orders", of: Order.self, inverse: "customer", deletionRule: .cascade)]
    }

    enum Attribute: CaseIterable { case name, city }
    static var attributeKeyPaths: [PartialKeyPath<Customer>: Attribute] { [\.name: .name, \.city: .city] }
}

struct Order: RelationshipModel, Queryable, Identifiable {
    var id: String
    var total: Int
    var customer: RecordReference<Customer>?

    static var relationships: [RelationshipSchema] { [.toOne("customer", to: Customer.self)] }

    enum Attribute: CaseIterable { case total, customer }
    static var attributeKeyPaths: [PartialKeyPath<Order>: Attribute] { [\.total: .total, \.customer: .customer] }
}

/// An order's delivery: a non-optional reference two steps from the customer.
struct Delivery: RecordModel, Queryable, Identifiable {
    var id: String
    var order: RecordReference<Order>

    enum Attribute: CaseIterable { case order }
    static var attributeKeyPaths: [PartialKeyPath<Delivery>: Attribute] { [\.order: .order] }
}

struct Staff: RelationshipModel, Identifiable {
    var id: String
    var name: String
    var manager: RecordReference<Staff>?

    static var relationships: [RelationshipSchema] { [.toOne("manager", to: Staff.self)] }
}

extension ModelContext {
    /// Alice (Paris) with orders o1 (120) and o2 (40), Bob (Lyon) with o3 (300), Carol (Paris)
    /// with none; o4 (75) has no customer and o5 (10) references a customer that does not exist.
    /// The relationships are defined first.
    func insertCustomersAndOrders() throws {
        try defineRelationships(of: [Customer.self, Order.self])
        let alice = Customer(id: "alice", name: "Alice", city: "Paris")
        let bob = Customer(id: "bob", name: "Bob", city: "Lyon")
        let carol = Customer(id: "carol", name: "Carol", city: "Paris")
        for customer in [alice, bob, carol] { try insert(customer) }
        try insert(Order(id: "o1", total: 120, customer: RecordReference(to: alice)))
        try insert(Order(id: "o2", total: 40, customer: RecordReference(to: alice)))
        try insert(Order(id: "o3", total: 300, customer: RecordReference(to: bob)))
        try insert(Order(id: "o4", total: 75, customer: nil))
        try insert(Order(id: "o5", total: 10, customer: RecordReference(recordName: "nobody")))
        try save()
    }
}

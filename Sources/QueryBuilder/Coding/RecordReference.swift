import PredicateLanguage
import RecordStore

/// A typed reference to another model's record (a to-one relationship): stored as a reference
/// field, resolved through a context or prefetched with the query.
///
/// A reference reads its target's properties as its own (`order.customer.name`, through dynamic
/// member lookup), which is how predicates walk the relationship:
/// `#Predicate<Order> { $0.customer.name == "Alice" }` becomes `customer.name == "Alice"`, which
/// the store plans in SQL. Outside predicates those properties read the target a query
/// prefetched (``Query/prefetching(_:)``), or nil when it was not prefetched or does not exist.
/// Two references are equal when they name the same record, prefetched or not.
///
/// ```swift
/// struct Order: RecordModel, Identifiable {
///     var id: String
///     var customer: RecordReference<Customer>
/// }
/// let order = Order(id: "o1", customer: RecordReference(to: alice)!)
/// let customer = try context.resolve(order.customer)   // Customer?
/// let hers = try Order.query(in: context).where(#Predicate { $0.customer.name == "Alice" }).prefetching("customer").all()
/// hers.first?.customer.name                            // "Alice" (prefetched)
/// ```
@dynamicMemberLookup
public struct RecordReference<Target: RecordModel>: Codable, Hashable, Sendable {
    /// The referenced record's name.
    public var recordName: String
    /// The referenced record's zone.
    public var zoneName: String
    /// The prefetched target, or what records a predicate's key paths.
    var attachment: ReferenceAttachment<Target>?

    /// The referenced model, when a query prefetched it (``Query/prefetching(_:)``); nil when it
    /// was not prefetched or the record does not exist.
    ///
    /// ```swift
    /// try Order.query(in: context).prefetching("customer").first()?.customer.target?.name   // "Alice"
    /// ```
    public var target: Target? {
        if case .target(let model)? = attachment { return model }
        return nil
    }

    /// A property of the target (``target``), or nil when it is not prefetched. In a
    /// `#Predicate` it names the target's field, so the predicate walks the relationship.
    ///
    /// ```swift
    /// #Predicate<Order> { $0.customer.name == "Alice" }   // customer.name == "Alice"
    /// ```
    public subscript<Member>(dynamicMember keyPath: KeyPath<Target, Member> & Sendable) -> Member? {
        readTarget(through: keyPath) { $0[keyPath: keyPath] }
    }

    /// An optional property of the target, flattened (`delivery.order.customer` is a
    /// `RecordReference<Customer>?`, not a double optional), so that walks read through several
    /// references: `#Predicate<Delivery> { $0.order.customer?.city == "Lyon" }`.
    ///
    /// ```swift
    /// #Predicate<Delivery> { $0.order.customer?.city == "Lyon" }   // order.customer.city == "Lyon"
    /// ```
    public subscript<Member>(dynamicMember keyPath: KeyPath<Target, Member?> & Sendable) -> Member? {
        readTarget(through: keyPath) { $0[keyPath: keyPath] }
    }

    /// What `read` gives from the prefetched target; nil without one. A probe records the key
    /// path instead (``ReferenceAttachment/recorder(_:)``).
    private func readTarget<Result>(through keyPath: AnyKeyPath, _ read: (Target) -> Result?) -> Result? {
        switch attachment {
        case .target(let model)?: return read(model)
        case .recorder(let recorder)?:
            recorder.record(keyPath)
            return nil
        case nil: return nil
        }
    }

    /// A reference to the record with this name.
    ///
    /// ```swift
    /// RecordReference<Customer>(recordName: "alice")
    /// ```
    public init(recordName: String, zoneName: String = Reference.defaultZoneName) {
        self.recordName = recordName
        self.zoneName = zoneName
    }

    /// A reference to a model that has a record name (an `Identifiable` model, or one already inserted), or nil.
    ///
    /// ```swift
    /// RecordReference(to: alice)?.recordName   // "alice"
    /// ```
    public init?(to model: Target, zone: ZoneID = .default) {
        guard let recordName = model.recordName else { return nil }
        self.init(recordName: recordName, zoneName: zone.zoneName)
    }

    /// The untyped reference, usable as a predicate argument.
    ///
    /// ```swift
    /// try FormatPredicate(format: "customer == %@", order.customer.reference)
    /// ```
    public var reference: Reference { Reference(recordName: recordName, zoneName: zoneName) }

    /// The referenced record's identifier.
    ///
    /// ```swift
    /// order.customer.recordID   // RecordID(recordName: "alice")
    /// ```
    public var recordID: RecordID { RecordID(recordName: recordName, zoneID: ZoneID(zoneName: zoneName)) }

    public static func == (left: RecordReference, right: RecordReference) -> Bool {
        left.recordName == right.recordName && left.zoneName == right.zoneName
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordName)
        hasher.combine(zoneName)
    }

    public init(from decoder: any Decoder) throws {
        let reference = try Reference(from: decoder)
        self.init(recordName: reference.recordName, zoneName: reference.zoneName)
    }

    public func encode(to encoder: any Encoder) throws {
        try reference.encode(to: encoder)
    }
}

extension RecordReference: RecordFieldRepresentable {
    var recordFieldValue: Value { .reference(reference) }
    init?(recordFieldValue: Value) {
        guard case .reference(let reference) = recordFieldValue else { return nil }
        self.init(recordName: reference.recordName, zoneName: reference.zoneName)
    }
    static var recordFieldTypeName: String { "RecordReference<\(Target.self)>" }
}

extension RecordReference: FormatArgument {
    /// `.reference(reference)`
    public var formatArgumentValue: Value { .reference(reference) }
}

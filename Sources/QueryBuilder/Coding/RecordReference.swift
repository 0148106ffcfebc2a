import PredicateLanguage
import RecordStore

/// A typed reference to another model's record: stored as a reference field, resolved through a context.
///
/// ```swift
/// struct Order: RecordModel, Identifiable {
///     var id: String
///     var customer: RecordReference<Customer>
/// }
/// let order = Order(id: "o1", customer: RecordReference(to: alice))
/// let customer = try context.resolve(order.customer)   // Customer?
/// let hers = try Order.query(in: context).where("customer == %@", order.customer.reference).all()
/// ```
public struct RecordReference<Target: RecordModel>: Codable, Hashable, Sendable {
    /// The referenced record's name.
    public var recordName: String
    /// The referenced record's zone.
    public var zoneName: String

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

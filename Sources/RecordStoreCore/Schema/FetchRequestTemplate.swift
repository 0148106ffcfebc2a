import PredicateLanguage

/// A named fetch request kept in the store's schema, as Core Data keeps fetch request templates
/// in a model: a record type and a predicate in format-string form whose `$VARIABLES` are bound
/// when the request is made (`store.fetchRequest(template:substitutionVariables:)`).
///
/// Declared with `store.define(_:)` (checked then: the predicate parses
/// and the record type exists), or read from a Core Data model by `store.apply(_:)`.
/// Templates are stored with the schema and survive reopening on every engine. CloudKit's schema
/// language (`.ckdb`) has no syntax for them, so `schemaDocument()` leaves them out.
///
/// ```swift
/// try store.define(FetchRequestTemplate(name: "HighEarners", recordType: "Employee", predicateFormat: "salary > $MINIMUM"))
/// let request = try store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": 100_000])
/// let earners = try store.fetch(request).records
/// ```
public struct FetchRequestTemplate: Sendable, Hashable, Codable {
    /// The template's name, unique in the store.
    public var name: String
    /// The record type it fetches.
    public var recordType: String
    /// The predicate in format-string form, with `$VARIABLES`; nil for every record.
    public var predicateFormat: String?
    /// The most records a request from the template returns; 0 for no limit.
    public var fetchLimit: Int
    /// Whether a request from the template fetches the records of the record type's subtypes
    /// too (a Core Data template's `includeSubentities`); nil for Core Data's default, yes.
    public var includesSubentities: Bool?

    /// Creates a template.
    ///
    /// ```swift
    /// FetchRequestTemplate(name: "InDepartment", recordType: "Employee", predicateFormat: "departmentName == $NAME")
    /// FetchRequestTemplate(name: "EmployeesOnly", recordType: "Employee", includesSubentities: false)
    /// ```
    public init(name: String, recordType: String, predicateFormat: String? = nil, fetchLimit: Int = 0, includesSubentities: Bool? = nil) {
        self.includesSubentities = includesSubentities
        self.name = name
        self.recordType = recordType
        self.predicateFormat = predicateFormat
        self.fetchLimit = fetchLimit
    }

    /// The predicate, parsed, with its `$VARIABLES` unbound; nil for every record.
    ///
    /// ```swift
    /// try template.predicate()?.variableNames   // ["MINIMUM"]
    /// ```
    public func predicate() throws(RecordStoreError) -> FormatPredicate? {
        guard let predicateFormat else { return nil }
        do {
            return try FormatPredicate(format: predicateFormat)
        } catch {
            throw .invalidFetchRequestTemplate(name, reason: "its predicate does not parse: \(error)")
        }
    }
}

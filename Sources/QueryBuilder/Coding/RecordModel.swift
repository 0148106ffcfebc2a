import Foundation
import PredicateLanguage
import RecordStore

/// A Swift model stored as a record: any `Codable` type that names its record type and record name.
///
/// The record type defaults to the type's name. The record name (the record's identity) is the
/// `id` of an `Identifiable` model; any other model gets a generated name when it is first
/// inserted, which it can keep by declaring a `recordName` property of its own (the decoder fills
/// it from the record's metadata, and the encoder never writes it as a field).
///
/// ```swift
/// struct Item: RecordModel, Identifiable {
///     var id: String
///     var name: String
///     var quantity: Int
///     var date: Date
/// }
/// Item.recordType                                       // "Item"
/// Item(id: "a1", name: "Apple", quantity: 1, date: .now).recordName   // "a1"
///
/// struct Note: RecordModel {          // not Identifiable: keeps its generated name here
///     var recordName: String?
///     var text: String
/// }
/// ```
public protocol RecordModel: Codable, Sendable {
    /// The record type the model is stored as (a table name: letters, digits, underscores). Defaults to the type's name.
    ///
    /// ```swift
    /// struct Item: RecordModel { static let recordType = "Inventory"; var name: String }
    /// ```
    static var recordType: String { get }

    /// The record name of this model, or nil when the context should generate one on insert.
    /// Defaults to the `id` of `Identifiable` models and to nil otherwise.
    ///
    /// ```swift
    /// Item(id: "a1", name: "Apple", quantity: 1, date: .now).recordName   // "a1"
    /// ```
    var recordName: String? { get }
}

extension RecordModel {
    /// The type's name, as `String(describing: Self.self)`.
    ///
    /// ```swift
    /// Item.recordType   // "Item"
    /// ```
    public static var recordType: String { String(describing: Self.self) }

    /// Nil: the context generates a record name on insert.
    ///
    /// ```swift
    /// Note(text: "hello").recordName   // nil
    /// ```
    public var recordName: String? { nil }
}

extension RecordModel where Self: Identifiable {
    /// The model's `id`, as a record name: strings as they are, UUIDs as `uuidString`, integers in decimal.
    ///
    /// ```swift
    /// Item(id: "a1", name: "Apple", quantity: 1, date: .now).recordName   // "a1"
    /// ```
    public var recordName: String? { RecordNaming.recordName(for: id) }
}

/// How identifiers become record names.
enum RecordNaming {
    /// The record name for an identifier: strings as they are, UUIDs as `uuidString`,
    /// integers in decimal, anything else by its description.
    static func recordName(for id: some Hashable) -> String {
        if let argument = id as? any FormatArgument {
            switch argument.formatArgumentValue {
            case .string(let text): return text
            case .int(let number): return String(number)
            default: break
            }
        }
        return String(describing: id)
    }

    /// A new unique record name for a model without one.
    static func generated() -> String {
        UUID().uuidString
    }
}

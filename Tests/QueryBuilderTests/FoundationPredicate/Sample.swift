import Foundation
import QueryBuilder

/// The model of swift-foundation's `NSPredicate` conversion tests (`ObjCObject` there), as a
/// `Queryable` struct: the same property names and types, so that Apple's expected formats apply.
struct Sample: Queryable, Identifiable, Equatable {
    var id: String = "sample"
    var a: Int = 1
    var b: String = "Hello"
    var c: Double = 2.3
    var d: Int = 4
    var f: Bool = true
    var g: [Int] = [5, 6, 7, 8, 9]
    var i: Date = Date(timeIntervalSinceReferenceDate: 1_000_000)
    var j: String? = nil
    var k: UUID = UUID(uuidString: "A5D59C48-9A34-4E86-9C86-4A2F6C1F6C0B")!
    var nonQueryable: Int = 8

    enum Attribute: String, CaseIterable { case a, b, c, d, f, g, i, j, k }

    static var attributeKeyPaths: [PartialKeyPath<Sample>: Attribute] {
        [\.a: .a, \.b: .b, \.c: .c, \.d: .d, \.f: .f, \.g: .g, \.i: .i, \.j: .j, \.k: .k]
    }
}

/// A model for the differential test: every kind of field a predicate compares.
struct Gizmo: Queryable, Identifiable, Equatable {
    var id: String
    var name: String
    var quantity: Int
    var price: Double
    var inStock: Bool
    var note: String?
    var tags: [String]

    enum Attribute: String, CaseIterable { case name, quantity, price, inStock, note, tags }

    static var attributeKeyPaths: [PartialKeyPath<Gizmo>: Attribute] {
        [\.name: .name, \.quantity: .quantity, \.price: .price, \.inStock: .inStock, \.note: .note, \.tags: .tags]
    }
}

// One import: the builder, the store and the predicate language.
import QueryBuilder

/// A model the builder maps to records of type `Fruit`.
struct Fruit: Queryable, Identifiable {
    var id: String
    var name: String
    var color: String
    var calories: Int

    enum Attribute: CaseIterable {
        case id, name, color, calories
    }

    static var attributeKeyPaths: [PartialKeyPath<Fruit>: Attribute] {
        [\.id: .id, \.name: .name, \.color: .color, \.calories: .calories]
    }
}

let path = CommandLine.arguments.dropFirst().first ?? "consumer.sqlite"
let store = try Store.open(path: path)

// The store and the language: records saved and found with a format string.
try store.save(
    [
        Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["name": "Paris", "population": 2_138_551]),
        Record(recordType: "City", recordID: RecordID(recordName: "lyon"), fields: ["name": "Lyon", "population": 513_275]),
    ],
    policy: .allKeys)
let large = try store.records(ofType: "City", matching: FormatPredicate(format: "population > %@", 1_000_000))
for city in large { print(city) }
print(try FormatPredicate(format: "name BEGINSWITH[c] 'p' AND population > 1000").predicateFormat)

// The builder: models inserted (an insert of a known identity updates it) and queried.
let context = ModelContext(store: store)
try context.insert(Fruit(id: "1", name: "Apple", color: "red", calories: 52))
try context.insert(Fruit(id: "2", name: "Banana", color: "yellow", calories: 89))
try context.insert(Fruit(id: "3", name: "Cherry", color: "red", calories: 50))
try context.save()
let red = try Fruit.query(in: context).where("color == 'red'").order(by: "calories").all()
print(red.map(\.name))
print(try Fruit.query(in: context).sum(\.calories) as Int)

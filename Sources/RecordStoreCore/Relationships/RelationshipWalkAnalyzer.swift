import Foundation
import PredicateLanguage

/// Finds the relationships a query's key paths walk through and rewrites those paths to read
/// the records they reach (see ``RelationshipWalk``).
///
/// A path component is a relationship when the record type at its level declares one of that
/// name, or has a `REFERENCE` or `LIST<REFERENCE>` field of that name (whose records may be of
/// any type: the level after it has no known type, and every type's relationships of a name
/// count there). It is walked when a plain key follows it later in the path (`department.name`,
/// `employees.@sum.salary`), and when it is the collection of a `SUBQUERY`, whose variable
/// then stands for its records (`SUBQUERY(employees, $e, $e.salary > 10)`).
///
/// A path that goes on past a field that is not a relationship, with a key that the field's
/// values do not have (`population.name`; `name.length` is a string's length), is
/// ``RecordStoreError/notARelationship(field:recordType:keyPath:)``, and a path through a type
/// the catalog knows names only its fields, metadata and relationships
/// (``RecordStoreError/unknownField(_:recordType:suggestions:)``): neither ever reads as an
/// empty result.
///
/// ```swift
/// var analyzer = RelationshipWalkAnalyzer(catalog: catalog, recordType: "Employee")
/// let rewritten = try analyzer.rewrite(try FormatPredicate(format: "department.name == 'Sales'"))
/// rewritten.predicateFormat   // department#.name == "Sales"
/// analyzer.walk.isEmpty       // false
/// ```
@_spi(StorageEngine) public struct RelationshipWalkAnalyzer {
    /// Where a path starts: a level of the walk (the relationship names leading to it) and the
    /// record type there, nil when unknown (after a reference field without a declared destination).
    private struct Level {
        var path: [String]
        var recordType: String?
    }

    private let catalog: SchemaCatalog
    private let recordType: String
    /// The walk found so far.
    @_spi(StorageEngine) public private(set) var walk = RelationshipWalk()
    /// The levels `SUBQUERY` variables stand for.
    private var variables: [String: Level] = [:]
    /// How many times a path used a relationship (walked or listed): a part of a query walks
    /// when it raises this, even where its text stays the same (`employees CONTAINS %@`).
    @_spi(StorageEngine) public private(set) var relationshipUses = 0

    /// An analyzer for queries of a record type.
    @_spi(StorageEngine) public init(catalog: SchemaCatalog, recordType: String) {
        self.catalog = catalog
        self.recordType = recordType
    }

    /// The predicate with every walked relationship read through its resolved key.
    @_spi(StorageEngine) public mutating func rewrite(_ predicate: FormatPredicate) throws(RecordStoreError) -> FormatPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let parts):
            var rewritten: [FormatPredicate] = []
            for part in parts { rewritten.append(try rewrite(part)) }
            return .and(rewritten)
        case .or(let parts):
            var rewritten: [FormatPredicate] = []
            for part in parts { rewritten.append(try rewrite(part)) }
            return .or(rewritten)
        case .not(let inner):
            return .not(try rewrite(inner))
        case .comparison(var comparison):
            comparison.left = try rewrite(comparison.left)
            comparison.right = try rewrite(comparison.right)
            return .comparison(comparison)
        }
    }

    /// A sort key (or group-by key) with every walked relationship read through its resolved key.
    @_spi(StorageEngine) public mutating func rewrite(key: String) throws(RecordStoreError) -> String {
        try rewrite(path: key, from: Level(path: [], recordType: recordType), readsLast: false).path
    }

    /// The expression with every walked relationship read through its resolved key.
    @_spi(StorageEngine) public mutating func rewrite(_ expression: FormatExpression) throws(RecordStoreError) -> FormatExpression {
        switch expression {
        case .constant, .evaluatedObject, .variable:
            return expression
        case .keyPath(let path):
            return .keyPath(try rewrite(path: path, from: Level(path: [], recordType: recordType), readsLast: false).path)
        case .member(let base, let path):
            if case .variable(let name) = base, let level = variables[name] {
                return .member(base, try rewrite(path: path, from: level, readsLast: false).path)
            }
            if case .index(.keyPath(let collection), let position) = base {
                let (rewritten, level) = try rewrite(path: collection, from: Level(path: [], recordType: recordType), readsLast: true)
                let member = try level.map { (level) throws(RecordStoreError) in try rewrite(path: path, from: level, readsLast: false).path } ?? path
                return .member(.index(.keyPath(rewritten), try rewrite(position)), member)
            }
            return .member(try rewrite(base), path)
        case .index(let base, let position):
            return .index(try rewrite(base), try rewrite(position))
        case .aggregate(let members):
            var rewritten: [FormatExpression] = []
            for member in members { rewritten.append(try rewrite(member)) }
            return .aggregate(rewritten)
        case .function(let name, let arguments):
            var rewritten: [FormatExpression] = []
            for argument in arguments { rewritten.append(try rewrite(argument)) }
            return .function(name, rewritten)
        case .customFunction(let target, let name, let arguments):
            var rewritten: [FormatExpression] = []
            for argument in arguments { rewritten.append(try rewrite(argument)) }
            return .customFunction(target: try rewrite(target), name: name, arguments: rewritten)
        case .arithmetic(let operation, let left, let right):
            return .arithmetic(operation, try rewrite(left), try rewrite(right))
        case .negation(let inner):
            return .negation(try rewrite(inner))
        case .cast(let inner, let type):
            return .cast(try rewrite(inner), type)
        case .ternary(let condition, let whenTrue, let whenFalse):
            return .ternary(try rewrite(condition), try rewrite(whenTrue), try rewrite(whenFalse))
        case .subquery(let collection, let variable, let predicate):
            var level: Level?
            var rewrittenCollection = collection
            switch collection {
            case .keyPath(let path):
                let result = try rewrite(path: path, from: Level(path: [], recordType: recordType), readsLast: true)
                rewrittenCollection = .keyPath(result.path)
                level = result.level
            case .variable(let name):
                level = variables[name]
            default:
                rewrittenCollection = try rewrite(collection)
            }
            let outer = variables[variable]
            variables[variable] = level
            defer { variables[variable] = outer }
            return .subquery(collection: rewrittenCollection, variable: variable, predicate: try rewrite(predicate))
        }
    }

    private mutating func rewrite(_ position: IndexSubscript) throws(RecordStoreError) -> IndexSubscript {
        if case .expression(let inner) = position { return .expression(try rewrite(inner)) }
        return position
    }

    /// The path from a level with its walked relationships resolved, and the level its last
    /// component reaches when `readsLast` asks for its records and it is a relationship.
    private mutating func rewrite(path: String, from start: Level, readsLast: Bool) throws(RecordStoreError) -> (path: String, level: Level?) {
        // Core Data's `entity.name` is the record's type (``EntityKeyPath``), not a walk.
        if start.path.isEmpty, start.recordType == recordType, EntityKeyPath.keyPaths.contains(path),
           catalog.recordTypes[recordType]?.field(named: "entity") == nil {
            return (path, nil)
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var rewritten: [String] = []
        var level = start
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            if index > 0, !isLast, let operation = CollectionOperator(rawValue: component), Self.appliesRestToMembers(operation),
               relationship(components[index + 1], at: level) != nil {
                // `reports.@max.dept.budget`: key-value coding reads `dept.budget` of each member
                // (the records of the relationship walked just before), so the walk goes on from
                // the members' level. (A plain field after the operator is read as before: the
                // members' values, nil where they lack it.)
                rewritten.append(component)
                continue
            }
            if component.hasPrefix("@") || component == "SELF" || component == "self" || component.isEmpty {
                rewritten += components[index...]
                return (rewritten.joined(separator: "."), nil)
            }
            let rest = components[(index + 1)...]
            let keyFollows = rest.contains { !$0.hasPrefix("@") && $0 != "SELF" && $0 != "self" }
            guard let relationship = relationship(component, at: level) else {
                if let next = rest.first, keyFollows, !next.hasPrefix("@") {
                    try checkKey(next, after: component, at: level, path: path)
                } else {
                    try checkKnown(component, at: level)
                }
                rewritten += components[index...]
                return (rewritten.joined(separator: "."), nil)
            }
            // A reference list's collection operators count and read the records that exist.
            let listOperatorFollows = relationship.kind == .referenceList && !rest.isEmpty
            if keyFollows || (isLast && readsLast) || listOperatorFollows {
                relationshipUses += 1
                rewritten.append(RelationshipWalk.resolvedKey(component))
                update(level.path) { step in step.children[component, default: .init()].readsRecords = true }
                level = Level(path: level.path + [component], recordType: relationship.destination.isEmpty ? nil : relationship.destination)
                if isLast { return (rewritten.joined(separator: "."), level) }
                continue
            }
            if case .toMany = relationship.kind {
                relationshipUses += 1
                update(level.path) { step in step.children[component, default: .init()].listsReferences = true }
            } else if relationship.destination.isEmpty, level.recordType == nil {
                relationshipUses += 1
                // A level of unknown type: the name may be an inverse to-many on the record found there.
                update(level.path) { step in step.children[component, default: .init()].listsReferences = true }
            }
            rewritten += components[index...]
            return (rewritten.joined(separator: "."), nil)
        }
        return (rewritten.joined(separator: "."), nil)
    }

    /// Whether a collection operator reads the key path after it from each member (`@sum`,
    /// `@avg`, `@min`, `@max` and the unions of objects), rather than counting them (`@count`)
    /// or flattening member lists.
    private static func appliesRestToMembers(_ operation: CollectionOperator) -> Bool {
        switch operation {
        case .sum, .average, .minimum, .maximum, .distinctUnionOfObjects, .unionOfObjects: true
        case .count, .distinctUnionOfArrays, .unionOfArrays: false
        }
    }

    /// The relationship a component names at a level: the type's own, or, at a level of
    /// unknown type, any type's of that name.
    private func relationship(_ name: String, at level: Level) -> RelationshipSchema? {
        if let recordType = level.recordType { return catalog.walkableRelationship(name, of: recordType) }
        for recordType in catalog.recordTypes.keys.sorted() {
            if let relationship = catalog.walkableRelationship(name, of: recordType) {
                // Which type the record found there has is known only when it is read.
                return RelationshipSchema(name: name, destination: "", kind: relationship.kind, deletionRule: .noAction)
            }
        }
        return nil
    }

    /// Throws when a known type has no field, metadata or relationship of this name.
    private func checkKnown(_ name: String, at level: Level) throws(RecordStoreError) {
        guard let recordType = level.recordType, let schema = catalog.recordTypes[recordType] else { return }
        try Self.checkKnown(name, in: schema)
    }

    /// Throws ``RecordStoreError/unknownField(_:recordType:suggestions:)``, with the closest
    /// names, when a type has no field, metadata or relationship of this name: the check of
    /// every key path component, walked or prefetched.
    static func checkKnown(_ name: String, in schema: RecordTypeSchema) throws(RecordStoreError) {
        if MetadataField(rawValue: name) != nil || schema.field(named: name) != nil || schema.relationship(named: name) != nil { return }
        // A to-one is a field and a relationship of one name: each name is suggested once.
        let names = Set(schema.fields.map(\.name) + schema.relationships.map(\.name) + MetadataField.allCases.map(\.rawValue))
        throw .unknownField(name, recordType: schema.name, suggestions: NameSuggestions.closest(to: name, among: names))
    }

    /// Throws when `key` follows a field that is not a relationship and the field's values have
    /// no such key (a string has `length`, a number `intValue`, ...).
    private func checkKey(_ key: String, after name: String, at level: Level, path: String) throws(RecordStoreError) {
        try checkKnown(name, at: level)
        guard let recordType = level.recordType else { return }
        let type: FieldType
        if let metadata = MetadataField(rawValue: name) {
            type = metadata.fieldType
        } else if let field = catalog.recordTypes[recordType]?.field(named: name) {
            type = field.type
        } else {
            return
        }
        let sample: Value
        switch type {
        case .string: sample = .string("")
        case .int64: sample = .int(0)
        case .double: sample = .double(0)
        case .bool: sample = .bool(false)
        case .date: sample = .date(Date(timeIntervalSinceReferenceDate: 0))
        case .bytes: sample = .bytes(Data())
        case .location, .reference: sample = .null
        case .list: return  // a key on a list reaches each member
        }
        if sample.isNull || sample.value(forKey: key).isNull {
            throw .notARelationship(field: name, recordType: recordType, keyPath: path)
        }
    }

    /// Runs `body` on the step at a level of the walk.
    private mutating func update(_ path: [String], _ body: (inout RelationshipWalk.Step) -> Void) {
        func visit(_ step: inout RelationshipWalk.Step, _ remaining: ArraySlice<String>) {
            guard let first = remaining.first else { return body(&step) }
            visit(&step.children[first, default: .init()], remaining.dropFirst())
        }
        visit(&walk.root, path[...])
    }
}

extension SchemaCatalog {
    /// Whether `recordType` is `ancestor` or one of the types below it (through
    /// ``RecordTypeSchema/parentType``). A loop in the parents ends the walk.
    ///
    /// ```swift
    /// catalog.isType("Manager", kindOf: "Person")   // true: Manager → Employee → Person
    /// ```
    @_spi(StorageEngine) public func isType(_ recordType: String, kindOf ancestor: String) -> Bool {
        var current: String? = recordType
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted {
            if name == ancestor { return true }
            current = recordTypes[name]?.parentType
        }
        return false
    }

    /// Whether any record type names `recordType` as its parent.
    ///
    /// ```swift
    /// catalog.hasSubtypes("Person")   // true
    /// ```
    @_spi(StorageEngine) public func hasSubtypes(_ recordType: String) -> Bool {
        recordTypes.values.contains { $0.parentType == recordType && $0.name != recordType }
    }

    /// The record types a query on `recordType` reads: the type itself unless it is abstract,
    /// then, when `includingSubtypes`, every type below it that is not abstract, in name order
    /// (the type first). An unknown type gives itself, so that the engine reports it.
    ///
    /// ```swift
    /// catalog.concreteTypes(of: "Person", includingSubtypes: true)    // ["Contractor", "Employee", "Manager"]
    /// catalog.concreteTypes(of: "Employee", includingSubtypes: false) // ["Employee"]
    /// ```
    @_spi(StorageEngine) public func concreteTypes(of recordType: String, includingSubtypes: Bool) -> [String] {
        guard let schema = recordTypes[recordType] else { return [recordType] }
        var types = schema.isAbstract ? [] : [recordType]
        guard includingSubtypes else { return types }
        types += recordTypes.values
            .filter { $0.name != recordType && !$0.isAbstract && isType($0.name, kindOf: recordType) }
            .map(\.name).sorted()
        return types
    }
}

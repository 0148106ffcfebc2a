/// Turns the element tree of a model's `contents` into a ``CoreDataModel``, then checks that the
/// model holds together (every parent, destination, inverse, indexed property and template
/// entity exists). Each element's attributes are read, ignored (documented on
/// ``CoreDataModel``) or refused; so are its child elements.
struct CoreDataModelParser {
    let file: String

    // MARK: - Errors and values

    private func invalid(_ node: XMLElementNode, _ message: String) -> CoreDataModelError {
        .invalid(file: file, line: node.line, message: message)
    }

    private func unsupported(_ node: XMLElementNode, _ message: String) -> CoreDataModelError {
        .unsupported(file: file, line: node.line, message: message)
    }

    /// Refuses an attribute of `node` that is neither read nor knowingly ignored.
    private func checkAttributes(_ node: XMLElementNode, reads: Set<String>, ignores: Set<String>) throws(CoreDataModelError) {
        for name in node.attributeNames where !reads.contains(name) && !ignores.contains(name) {
            throw unsupported(node, "unknown attribute '\(name)' on <\(node.name)>\(subject(node)); it may change the model's meaning, so it is refused rather than ignored")
        }
    }

    private func subject(_ node: XMLElementNode) -> String {
        node.attribute("name").map { " '\($0)'" } ?? ""
    }

    private func required(_ node: XMLElementNode, _ name: String) throws(CoreDataModelError) -> String {
        guard let value = node.attribute(name), !value.isEmpty else {
            throw invalid(node, "<\(node.name)>\(subject(node)) has no '\(name)'")
        }
        return value
    }

    private func flag(_ node: XMLElementNode, _ name: String) throws(CoreDataModelError) -> Bool? {
        guard let value = node.attribute(name) else { return nil }
        switch value {
        case "YES": return true
        case "NO": return false
        default: throw invalid(node, "'\(name)' on <\(node.name)>\(subject(node)) is '\(value)'; expected YES or NO")
        }
    }

    /// The `renamingIdentifier` of an entity or property, nil when absent or empty.
    private func renaming(_ node: XMLElementNode) -> String? {
        node.attribute("renamingIdentifier").flatMap { $0.isEmpty ? nil : $0 }
    }

    private func integer(_ node: XMLElementNode, _ name: String) throws(CoreDataModelError) -> Int? {
        guard let value = node.attribute(name) else { return nil }
        guard let number = Int(value) else { throw invalid(node, "'\(name)' on <\(node.name)>\(subject(node)) is '\(value)'; expected a whole number") }
        return number
    }

    // MARK: - Model

    func parseModel(_ root: XMLElementNode) throws(CoreDataModelError) -> CoreDataModel {
        guard root.name == "model" else {
            throw invalid(root, "the root element is <\(root.name)>; a Core Data model's contents file has <model>")
        }
        // The model's own attributes are tool versions and editor settings (type, documentVersion,
        // lastSavedToolsVersion, systemVersion, minimumToolsVersion, sourceLanguage, macOSVersion,
        // iOSVersion, usedWithCloudKit, usedWithSwiftData…): none changes what is stored.
        var model = CoreDataModel()
        if let identifier = root.attribute("userDefinedModelVersionIdentifier"), !identifier.isEmpty {
            model.versionIdentifier = identifier
        }
        var lines: [String: Int] = [:]
        for child in root.children {
            switch child.name {
            case "entity":
                let entity = try parseEntity(child)
                if let first = lines[entity.name] {
                    throw invalid(child, "a second entity named '\(entity.name)' (the first is on line \(first))")
                }
                lines[entity.name] = child.line
                model.entities.append(entity)
            case "fetchRequest":
                model.fetchRequestTemplates.append(try parseFetchRequest(child))
            case "configuration":
                model.configurations.append(try parseConfiguration(child))
            case "elements", "userInfo":
                continue
            case "compositeAttribute":
                throw unsupported(child, "composite attribute type\(subject(child)): the store has no field type that keeps a composite value")
            default:
                throw unsupported(child, "unknown element <\(child.name)> in <model>")
            }
        }
        try check(model, root: root)
        return model
    }

    // MARK: - Entities

    private func parseEntity(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataEntity {
        try checkAttributes(
            node, reads: ["name", "representedClassName", "parentEntity", "isAbstract", "renamingIdentifier"],
            ignores: ["syncable", "codeGenerationType", "elementID", "versionHashModifier"])
        var entity = CoreDataEntity(
            name: try required(node, "name"), representedClassName: node.attribute("representedClassName"),
            parentEntity: node.attribute("parentEntity"), isAbstract: try flag(node, "isAbstract") ?? false,
            renamingIdentifier: renaming(node))
        var propertyLines: [String: Int] = [:]
        func declare(_ name: String, _ child: XMLElementNode) throws(CoreDataModelError) {
            if let first = propertyLines[name] {
                throw invalid(child, "entity '\(entity.name)' has a second property named '\(name)' (the first is on line \(first))")
            }
            propertyLines[name] = child.line
        }
        for child in node.children {
            switch child.name {
            case "attribute":
                let attribute = try parseAttribute(child)
                try declare(attribute.name, child)
                entity.attributes.append(attribute)
            case "relationship":
                let relationship = try parseRelationship(child)
                try declare(relationship.name, child)
                entity.relationships.append(relationship)
            case "fetchedProperty":
                let property = try parseFetchedProperty(child)
                try declare(property.name, child)
                entity.fetchedProperties.append(property)
            case "fetchIndex":
                entity.fetchIndexes.append(try parseFetchIndex(child))
            case "compoundIndexes":
                entity.fetchIndexes += try parseCompoundIndexes(child)
            case "uniquenessConstraints":
                entity.uniquenessConstraints += try parseUniquenessConstraints(child)
            case "userInfo":
                continue
            default:
                throw unsupported(child, "unknown element <\(child.name)> in entity '\(entity.name)'")
            }
        }
        return entity
    }

    private func parseAttribute(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataAttribute {
        let name = try required(node, "name")
        if node.attribute("derived") == "YES" || node.attribute("derivationExpression") != nil {
            throw unsupported(node, "attribute '\(name)' is derived (\(node.attribute("derivationExpression") ?? "derived=YES")): Core Data computes it on save, and the store cannot")
        }
        try checkAttributes(
            node,
            reads: [
                "name", "attributeType", "optional", "defaultValueString", "defaultDateTimeInterval", "indexed", "transient",
                "valueTransformerName", "customClassName", "minValueString", "maxValueString", "regularExpressionString",
                "minDateTimeInterval", "maxDateTimeInterval", "renamingIdentifier",
            ],
            ignores: [
                "usesScalarValueType", "syncable", "allowsExternalBinaryDataStorage", "allowsCloudEncryption", "preserveAfterDeletion",
                "spotlightIndexingEnabled", "indexedBySpotlight", "storedInTruthFile", "elementID", "versionHashModifier",
                "attributeValueClassName", "derived",
            ])
        let typeName = try required(node, "attributeType")
        guard let type = CoreDataAttributeType(rawValue: typeName) else {
            switch typeName {
            case "Composite":
                throw unsupported(node, "attribute '\(name)' is a composite attribute: the store has no field type that keeps a composite value")
            case "Object ID", "ObjectID", "Objectid":
                throw unsupported(node, "attribute '\(name)' is of type '\(typeName)': the store has no field type for Core Data object IDs")
            default:
                let known = CoreDataAttributeType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw invalid(node, "attribute '\(name)' has the unknown type '\(typeName)'; expected one of \(known)")
            }
        }
        let isTransient = try flag(node, "transient") ?? false
        if type == .undefined, !isTransient {
            throw invalid(node, "attribute '\(name)' is of type 'Undefined' but not transient; only transient attributes may be undefined")
        }
        func seconds(_ setting: String) throws(CoreDataModelError) -> Double? {
            guard let text = node.attribute(setting) else { return nil }
            guard let value = Double(text) else { throw invalid(node, "'\(setting)' on attribute '\(name)' is '\(text)'; expected a number of seconds") }
            return value
        }
        let attribute = CoreDataAttribute(
            name: name, type: type, isOptional: try flag(node, "optional") ?? false,
            defaultValueString: node.attribute("defaultValueString"), defaultDateTimeInterval: try seconds("defaultDateTimeInterval"),
            isIndexed: try flag(node, "indexed") ?? false, isTransient: isTransient,
            valueTransformerName: node.attribute("valueTransformerName"), customClassName: node.attribute("customClassName"),
            minValueString: node.attribute("minValueString"), maxValueString: node.attribute("maxValueString"),
            regularExpressionString: node.attribute("regularExpressionString"),
            minDateTimeInterval: try seconds("minDateTimeInterval"), maxDateTimeInterval: try seconds("maxDateTimeInterval"),
            renamingIdentifier: renaming(node))
        if let problem = attribute.malformedValidationSetting { throw invalid(node, problem) }
        return attribute
    }

    private func parseRelationship(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataRelationship {
        try checkAttributes(
            node,
            reads: [
                "name", "destinationEntity", "toMany", "ordered", "inverseName", "inverseEntity", "deletionRule",
                "minCount", "maxCount", "optional", "transient", "renamingIdentifier",
            ],
            ignores: [
                "syncable", "elementID", "versionHashModifier", "spotlightIndexingEnabled",
                "indexedBySpotlight", "storedInTruthFile", "indexed", "allowsCloudEncryption", "preserveAfterDeletion",
            ])
        let name = try required(node, "name")
        try checkChildren(node, ignoring: ["userInfo"])
        var rule = CoreDataDeletionRule.nullify
        if let text = node.attribute("deletionRule") {
            guard let parsed = CoreDataDeletionRule(rawValue: text) else {
                let known = CoreDataDeletionRule.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw invalid(node, "relationship '\(name)' has the unknown deletion rule '\(text)'; expected one of \(known)")
            }
            rule = parsed
        }
        return CoreDataRelationship(
            name: name, destinationEntity: try required(node, "destinationEntity"), isToMany: try flag(node, "toMany") ?? false,
            isOrdered: try flag(node, "ordered") ?? false, inverseName: node.attribute("inverseName"),
            inverseEntity: node.attribute("inverseEntity"), deletionRule: rule, minCount: try integer(node, "minCount"),
            maxCount: try integer(node, "maxCount"), isOptional: try flag(node, "optional") ?? false,
            isTransient: try flag(node, "transient") ?? false, renamingIdentifier: renaming(node))
    }

    /// Refuses any child element but those ignored.
    private func checkChildren(_ node: XMLElementNode, ignoring ignored: Set<String>) throws(CoreDataModelError) {
        for child in node.children where !ignored.contains(child.name) {
            throw unsupported(child, "unknown element <\(child.name)> in <\(node.name)>\(subject(node))")
        }
    }

    private func parseFetchIndex(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataFetchIndex {
        try checkAttributes(node, reads: ["name"], ignores: [])
        var index = CoreDataFetchIndex(name: try required(node, "name"), elements: [])
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                throw unsupported(child, "unknown element <\(child.name)> in fetch index '\(index.name)'")
            }
            if child.attribute("expression") != nil || child.attribute("expressionType") != nil {
                throw unsupported(child, "fetch index '\(index.name)' indexes an expression (\(child.attribute("expression") ?? "")); only properties can be indexed")
            }
            try checkAttributes(child, reads: ["property", "type", "order"], ignores: [])
            var element = CoreDataFetchIndexElement(property: try required(child, "property"))
            if let text = child.attribute("type") {
                guard let kind = CoreDataFetchIndexElement.Kind(rawValue: text) else {
                    throw invalid(child, "fetch index '\(index.name)' has the unknown index type '\(text)'; expected 'Binary' or 'RTree'")
                }
                element.kind = kind
            }
            switch child.attribute("order") {
            case nil, "ascending": element.isAscending = true
            case "descending": element.isAscending = false
            case let other?: throw invalid(child, "fetch index '\(index.name)' has the order '\(other)'; expected 'ascending' or 'descending'")
            }
            index.elements.append(element)
        }
        guard !index.elements.isEmpty else { throw invalid(node, "fetch index '\(index.name)' has no <fetchIndexElement>") }
        return index
    }

    /// The older form of compound indexes: `<compoundIndexes><compoundIndex><index value="a"/>…`,
    /// read as fetch indexes named `compoundIndex1`, `compoundIndex2`, … over ascending B-trees.
    private func parseCompoundIndexes(_ node: XMLElementNode) throws(CoreDataModelError) -> [CoreDataFetchIndex] {
        var indexes: [CoreDataFetchIndex] = []
        for compound in node.children {
            guard compound.name == "compoundIndex" else { throw unsupported(compound, "unknown element <\(compound.name)> in <compoundIndexes>") }
            var elements: [CoreDataFetchIndexElement] = []
            for index in compound.children {
                guard index.name == "index" else { throw unsupported(index, "unknown element <\(index.name)> in <compoundIndex>") }
                try checkAttributes(index, reads: ["value"], ignores: [])
                elements.append(CoreDataFetchIndexElement(property: try required(index, "value")))
            }
            guard !elements.isEmpty else { throw invalid(compound, "a <compoundIndex> has no <index>") }
            indexes.append(CoreDataFetchIndex(name: "compoundIndex\(indexes.count + 1)", elements: elements))
        }
        return indexes
    }

    private func parseUniquenessConstraints(_ node: XMLElementNode) throws(CoreDataModelError) -> [[String]] {
        var constraints: [[String]] = []
        for constraint in node.children {
            guard constraint.name == "uniquenessConstraint" else {
                throw unsupported(constraint, "unknown element <\(constraint.name)> in <uniquenessConstraints>")
            }
            var names: [String] = []
            for member in constraint.children {
                guard member.name == "constraint" else { throw unsupported(member, "unknown element <\(member.name)> in <uniquenessConstraint>") }
                try checkAttributes(member, reads: ["value"], ignores: [])
                names.append(try required(member, "value"))
            }
            guard !names.isEmpty else { throw invalid(constraint, "a <uniquenessConstraint> has no <constraint>") }
            constraints.append(names)
        }
        return constraints
    }

    private func parseFetchedProperty(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataFetchedProperty {
        try checkAttributes(node, reads: ["name"], ignores: ["optional", "syncable", "elementID", "versionHashModifier", "renamingIdentifier"])
        let name = try required(node, "name")
        try checkChildren(node, ignoring: ["userInfo", "fetchRequest"])
        let requests = node.children(named: "fetchRequest")
        guard requests.count == 1 else { throw invalid(node, "fetched property '\(name)' has \(requests.count) <fetchRequest> elements; expected one") }
        return CoreDataFetchedProperty(name: name, fetchRequest: try parseFetchRequest(requests[0]))
    }

    private func parseFetchRequest(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataFetchRequestTemplate {
        try checkAttributes(
            node,
            reads: ["name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "resultType", "includeSubentities", "returnDistinctResults"],
            ignores: ["includePropertyValues", "includePendingChanges", "returnObjectsAsFaults"])
        try checkChildren(node, ignoring: ["userInfo"])
        return CoreDataFetchRequestTemplate(
            name: try required(node, "name"), entity: try required(node, "entity"), predicateString: node.attribute("predicateString"),
            fetchLimit: try integer(node, "fetchLimit"), fetchBatchSize: try integer(node, "fetchBatchSize"),
            resultType: node.attribute("resultType"), includesSubentities: try flag(node, "includeSubentities"),
            returnsDistinctResults: try flag(node, "returnDistinctResults"))
    }

    private func parseConfiguration(_ node: XMLElementNode) throws(CoreDataModelError) -> CoreDataConfiguration {
        try checkAttributes(node, reads: ["name", "usedWithCloudKit"], ignores: [])
        var configuration = CoreDataConfiguration(name: try required(node, "name"), isUsedWithCloudKit: try flag(node, "usedWithCloudKit") ?? false)
        for child in node.children {
            switch child.name {
            case "memberEntity":
                try checkAttributes(child, reads: ["name"], ignores: [])
                configuration.entities.append(try required(child, "name"))
            case "userInfo":
                continue
            default:
                throw unsupported(child, "unknown element <\(child.name)> in configuration '\(configuration.name)'")
            }
        }
        return configuration
    }

    // MARK: - Consistency

    /// Checks that every name the model refers to exists, with the line of the element that refers to it.
    private func check(_ model: CoreDataModel, root: XMLElementNode) throws(CoreDataModelError) {
        let entityNodes = root.children(named: "entity")
        let names = Set(model.entities.map(\.name))
        for (entity, node) in zip(model.entities, entityNodes) {
            if let parent = entity.parentEntity {
                guard names.contains(parent) else { throw invalid(node, "entity '\(entity.name)' has the parent entity '\(parent)', which the model does not have") }
                var seen: [String] = [entity.name]
                var next: String? = parent
                while let name = next {
                    guard !seen.contains(name) else {
                        throw invalid(node, "entity '\(entity.name)' inherits from itself (\((seen + [name]).joined(separator: " → ")))")
                    }
                    seen.append(name)
                    next = model.entity(named: name)?.parentEntity
                }
                let inherited = Set(model.lineage(of: parent).flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
                for property in entity.attributes.map(\.name) + entity.relationships.map(\.name) where inherited.contains(property) {
                    throw invalid(node, "entity '\(entity.name)' declares '\(property)', which it already inherits from '\(parent)'")
                }
            }
            let relationshipNodes = node.children(named: "relationship")
            for (relationship, relationshipNode) in zip(entity.relationships, relationshipNodes) {
                let subject = "relationship '\(relationship.name)' of entity '\(entity.name)'"
                guard names.contains(relationship.destinationEntity) else {
                    throw invalid(relationshipNode, "\(subject) leads to the entity '\(relationship.destinationEntity)', which the model does not have")
                }
                if let inverse = relationship.inverseName {
                    let owner = relationship.inverseEntity ?? relationship.destinationEntity
                    guard names.contains(owner) else { throw invalid(relationshipNode, "\(subject) has the inverse entity '\(owner)', which the model does not have") }
                    guard model.relationships(of: owner).contains(where: { $0.name == inverse }) else {
                        throw invalid(relationshipNode, "\(subject) has the inverse '\(inverse)', which entity '\(owner)' does not have")
                    }
                }
            }
            let properties = Set(model.attributes(of: entity.name).map(\.name) + model.relationships(of: entity.name).map(\.name))
            // Fetch indexes and compound indexes, with the element naming each property.
            for indexNode in node.children where indexNode.name == "fetchIndex" || indexNode.name == "compoundIndexes" {
                let members = indexNode.name == "fetchIndex" ? indexNode.children : indexNode.children.flatMap(\.children)
                for member in members {
                    let property = member.attribute("property") ?? member.attribute("value") ?? ""
                    guard !properties.contains(property) else { continue }
                    let index = indexNode.attribute("name").map { "fetch index '\($0)'" } ?? "a compound index"
                    throw invalid(member, "\(index) of entity '\(entity.name)' names '\(property)', which the entity does not have")
                }
            }
        }
        for (template, node) in zip(model.fetchRequestTemplates, root.children(named: "fetchRequest")) where !names.contains(template.entity) {
            throw invalid(node, "fetch request template '\(template.name)' fetches the entity '\(template.entity)', which the model does not have")
        }
        for (configuration, node) in zip(model.configurations, root.children(named: "configuration")) {
            for member in configuration.entities where !names.contains(member) {
                throw invalid(node, "configuration '\(configuration.name)' names the entity '\(member)', which the model does not have")
            }
        }
    }
}

// Part of the Macros trait: without it, swift-syntax is not built and the plugin does nothing.
#if Macros
import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@QueryModel`: writes a struct's `Queryable` table, so that key paths (in `#Predicate`,
/// `SortDescriptor`, `where(\.field, ...)`) name its fields without a hand-written table.
///
/// For each stored instance property (not `static`, not computed, not `recordName`), a case of
/// `enum Attribute: String` named and valued as the property, and its key path in
/// `attributeKeyPaths`; then `extension Type: Queryable {}`.
public struct QueryModelMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: QueryModelDiagnostic.notAStruct))
            return []
        }
        let typeName = structure.name.trimmed.text
        let names = storedPropertyNames(of: structure)
        let access = structure.modifiers.first { ["public", "package"].contains($0.name.text) }.map { $0.name.text + " " } ?? ""
        let cases = names.isEmpty ? "" : "case " + names.map(escaped).joined(separator: ", ")
        let entries = names.isEmpty ? ":" : names.map { "\\\(typeName).\(escaped($0)): .\(escaped($0))" }.joined(separator: ", ")
        return [
            """
            \(raw: access)enum Attribute: String, CaseIterable, Sendable {
                \(raw: cases)
            }
            """,
            """
            \(raw: access)static var attributeKeyPaths: [PartialKeyPath<\(raw: typeName)>: Attribute] {
                [\(raw: entries)]
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else { return [] }
        let conformance: DeclSyntax = "extension \(type.trimmed): QueryBuilder.Queryable {}"
        return [conformance.cast(ExtensionDeclSyntax.self)]
    }

    /// The names of the stored instance properties, in declaration order.
    static func storedPropertyNames(of structure: StructDeclSyntax) -> [String] {
        var names: [String] = []
        for member in structure.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) else { continue }
            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock, !isObserversOnly(accessors) { continue }  // computed
                let name = identifier.identifier.text.filter { $0 != "`" }
                if name == "recordName" { continue }  // the record's identity, not a field
                names.append(name)
            }
        }
        return names
    }

    /// Whether an accessor block only observes (`willSet`/`didSet`): the property is stored.
    static func isObserversOnly(_ block: AccessorBlockSyntax) -> Bool {
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }

    /// A name usable as an identifier (back-quoted when it is a keyword).
    static func escaped(_ name: String) -> String {
        let keywords: Set<String> = ["default", "case", "class", "enum", "func", "in", "is", "let", "var", "where", "while", "return", "self", "Self", "static", "struct", "switch", "true", "false", "nil", "import", "protocol", "extension", "init", "operator", "repeat", "for", "if", "else", "do", "try", "throw", "catch", "as", "any", "some", "internal", "private", "public"]
        return keywords.contains(name) ? "`\(name)`" : name
    }
}

/// What `@QueryModel` tells the compiler.
enum QueryModelDiagnostic: String, DiagnosticMessage {
    case notAStruct

    var message: String {
        switch self {
        case .notAStruct: "@QueryModel applies to a struct (a Codable model stored as a record)"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "QueryModel", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

@main
struct QueryModelPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [QueryModelMacro.self]
}
#else
/// Without the Macros trait the plugin has no macro; `QueryModel` then declares none.
@main
enum QueryModelPluginWithoutMacros {
    static func main() {}
}
#endif

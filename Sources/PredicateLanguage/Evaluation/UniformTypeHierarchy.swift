/// Conformance between uniform type identifiers, for `UTI-CONFORMS-TO` and `UTI-EQUALS`.
///
/// The hierarchy is the system-declared types of Apple's Uniform Type Identifiers reference
/// (``UniformTypeDeclarations``): `public.jpeg` conforms to `public.image`, which conforms to
/// `public.data` and `public.content`, and so on. A type conforms to itself and to every type above
/// it; identifiers compare without regard to case, as Apple's `UTTypeEqual` compares them. An
/// identifier the table does not declare (an app's own type, a `dyn.` type) conforms only to itself.
///
/// ```swift
/// UniformTypeHierarchy.conforms("public.jpeg", to: "public.image")      // true
/// UniformTypeHierarchy.conforms("public.jpeg", to: "public.movie")      // false
/// UniformTypeHierarchy.conforms("com.example.note", to: "public.data")  // false
/// ```
public enum UniformTypeHierarchy {
    /// Whether `type` is `supertype` or declared (directly or through its parents) to conform to it.
    ///
    /// ```swift
    /// UniformTypeHierarchy.conforms("public.utf8-plain-text", to: "public.text")   // true
    /// ```
    public static func conforms(_ type: String, to supertype: String) -> Bool {
        let type = canonical(type)
        let supertype = canonical(supertype)
        if type == supertype { return true }
        return ancestors[type]?.contains(supertype) ?? false
    }

    /// Whether two identifiers name the same type: equal without regard to case.
    ///
    /// ```swift
    /// UniformTypeHierarchy.identifies("public.JPEG", sameAs: "public.jpeg")   // true
    /// ```
    public static func identifies(_ type: String, sameAs other: String) -> Bool {
        canonical(type) == canonical(other)
    }

    /// Every type a declared type conforms to, itself excluded.
    ///
    /// ```swift
    /// UniformTypeHierarchy.supertypes(of: "public.png")   // ["public.image", "public.data", "public.content", "public.item"]
    /// ```
    public static func supertypes(of type: String) -> Set<String> {
        ancestors[canonical(type)] ?? []
    }

    /// Identifiers compare in ASCII lower case (they are ASCII but for rare non-ASCII letters, kept as they are).
    private static func canonical(_ identifier: String) -> String {
        identifier.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) ? identifier.lowercased() : identifier
    }

    /// The transitive closure of ``UniformTypeDeclarations/parents``, computed once.
    private static let ancestors: [String: Set<String>] = {
        var closure: [String: Set<String>] = [:]
        func collect(_ type: String, into result: inout Set<String>) {
            for parent in UniformTypeDeclarations.parents[type] ?? [] where result.insert(parent).inserted {
                collect(parent, into: &result)
            }
        }
        for type in UniformTypeDeclarations.parents.keys {
            var result = Set<String>()
            collect(type, into: &result)
            closure[type] = result
        }
        return closure
    }()
}

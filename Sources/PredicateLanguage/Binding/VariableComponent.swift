/// A `$VARIABLE` used as a key-path component, as in `$a.$b` or `items.$key`.
///
/// The syntax tree keeps it inside the path of a member access: `.member(.variable("a"), "$b")`.
/// (A `$` cannot start a key written in a format string, so such a component is always a
/// variable; a key given through `%K` that starts with `$` is only ever a whole key path.)
/// Substitution replaces it by its value when that is a string; evaluation looks it up then.
///
/// ```swift
/// VariableComponent.name(of: "$b")   // "b"
/// VariableComponent.name(of: "b")    // nil
/// ```
enum VariableComponent {
    /// The variable name of a component written `$name`, or nil for a plain key.
    static func name(of component: Substring) -> String? {
        guard component.utf8.first == UInt8(ascii: "$"), component.utf8.count > 1 else { return nil }
        return String(component.dropFirst())
    }

    /// Whether a variable's string value can stand as a key: not empty and not itself a variable.
    static func isUsableKey(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return first != UInt8(ascii: "$")
    }

    /// A member access of `SELF` or of a key path by plain keys, merged into one key path as the
    /// parser builds it (`SELF.a` is `a`; `a.b` is the key path "a.b"); nil when it does not merge.
    static func merged(_ expression: FormatExpression) -> FormatExpression? {
        guard case .member(let base, let path) = expression, !path.utf8.contains(UInt8(ascii: "$")) else { return nil }
        switch base {
        case .evaluatedObject: return .keyPath(path)
        case .keyPath(let basePath): return .keyPath(basePath + "." + path)
        default: return nil
        }
    }
}

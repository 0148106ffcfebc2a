// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// CloudKit's reference actions, the `action` of a reference dictionary
/// (`{"recordName", "zoneID", "action"}`): `DELETE_SELF` deletes the record holding the reference
/// when the referenced record is deleted (``DeleteSelfReferences`` in the store); `NONE` (the
/// default) and `VALIDATE` do nothing on deletion.
///
/// A `REFERENCE_LIST` carries one action per element; the server keeps one per field, so the
/// elements of a list must share theirs: a list mixing `DELETE_SELF` with another action is
/// refused (`BAD_REQUEST` naming the field).
///
/// ```swift
/// try ReferenceAction.of(["value": ["recordName": "l1", "action": "DELETE_SELF"], "type": "REFERENCE"], path: "fields.list")   // .deleteSelf
/// ```
enum ReferenceAction: String, CaseIterable {
    case none = "NONE"
    case deleteSelf = "DELETE_SELF"
    case validate = "VALIDATE"

    /// The action of a field value dictionary (at `path`) holding a reference or a list of
    /// references; nil for any other value. A missing `action` is `NONE`.
    static func of(_ fieldValue: JSONValue, path: @autoclosure () -> String) throws(ServerError) -> ReferenceAction? {
        guard let value = fieldValue["value"] else { return nil }
        if case .object = value {
            return value["recordName"] == nil ? nil : try action(of: value, path: "\(path()).value")
        }
        guard let elements = value.arrayValue, !elements.isEmpty,
              elements.allSatisfy({ element in if case .object = element { element["recordName"] != nil } else { false } }) else { return nil }
        var actions: [ReferenceAction] = []
        for (index, element) in elements.enumerated() { actions.append(try action(of: element, path: "\(path()).value[\(index)]")) }
        let deletesSelf = actions.map { $0 == .deleteSelf }
        guard Set(deletesSelf).count == 1 else {
            throw ServerError(
                .badRequest,
                "\(path()): the references of a list must share their action (DELETE_SELF for every element, or for none); this list mixes DELETE_SELF with \(actions.first { $0 != .deleteSelf }?.rawValue ?? "NONE")")
        }
        return actions[0]
    }

    /// The keys a read asks the store for when a client asks for `desiredKeys`: those, and the
    /// reserved field that says which references carry `DELETE_SELF` (nil and empty stay as they are).
    ///
    /// ```swift
    /// ReferenceAction.keepingActions(["parent"])   // ["parent", "___deleteSelf"]
    /// ```
    static func keepingActions(_ desiredKeys: [String]?) -> [String]? {
        guard let desiredKeys, !desiredKeys.isEmpty else { return desiredKeys }
        return desiredKeys + [DeleteSelfReferences.fieldName]
    }

    /// The action of one reference dictionary.
    private static func action(of reference: JSONValue, path: String) throws(ServerError) -> ReferenceAction {
        guard let raw = reference["action"], !raw.isNull else { return .none }
        guard let text = raw.stringValue, let action = ReferenceAction(rawValue: text) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw ServerError(.badRequest, "\(path).action is one of \(names), not \(raw.stringValue.map { "'\($0.prefix(80))'" } ?? raw.kindName)")
        }
        return action
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// What a schema administration route changes, or would change: the answer of
/// `schema/fields/add`, `schema/indexes/remove` and `schema/deploy`, computed by the same code
/// for a dry run (`"dryRun": true`, nothing changed) and for the change itself.
///
/// `changes` are written as `query schema deploy` writes a deployment's gains (`+ field
/// City.mayor STRING QUERYABLE`, `+ index City.name SORTABLE`, `- index City.name SORTABLE`);
/// `refused` names what the target cannot take (a field whose type would change), and a change
/// with anything refused is not made (`BAD_REQUEST` naming it).
///
/// ```swift
/// let plan = SchemaPlan(environment: .production, dryRun: true, deployment: deployment)
/// plan.json   // {"environment": "production", "dryRun": true, "changes": ["+ field City.mayor STRING"], "refused": []}
/// ```
struct SchemaPlan: Sendable, Equatable {
    /// The environment whose schema changes.
    let environment: Namespace.Environment
    /// Whether nothing was changed.
    let dryRun: Bool
    /// What the environment's schema gains or loses, in order.
    let changes: [String]
    /// What the environment's schema cannot take.
    let refused: [String]

    /// A plan of these changes.
    init(environment: Namespace.Environment, dryRun: Bool, changes: [String], refused: [String] = []) {
        self.environment = environment
        self.dryRun = dryRun
        self.changes = changes
        self.refused = refused
    }

    /// The plan of a deployment (``SchemaDeployment``): its gains are the changes, its
    /// conflicts the refusals.
    init(environment: Namespace.Environment, dryRun: Bool, deployment: SchemaDeployment) {
        self.init(environment: environment, dryRun: dryRun, changes: deployment.gains.map(\.description),
                  refused: deployment.conflicts.map(\.description))
    }

    /// The answer: `environment`, `dryRun`, `changes` and `refused`.
    var json: JSONValue {
        .object([
            "environment": .string(environment.rawValue), "dryRun": .bool(dryRun),
            "changes": .array(changes.map(JSONValue.string)), "refused": .array(refused.map(JSONValue.string)),
        ])
    }

    /// Throws `BAD_REQUEST` naming what is refused, when anything is: a plan that can be made
    /// passes.
    func checkNothingRefused() throws(ServerError) {
        guard !refused.isEmpty else { return }
        throw ServerError(.badRequest, "nothing changed: " + refused.joined(separator: "; "))
    }
}
#endif

import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// The security policy a store keeps from the `.ckdb` documents applied to it, and the holders of
/// its custom roles, on every engine.
@Suite struct SecurityPolicyStoreTests {
    static let document = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;
            RECORD TYPE Note (title STRING QUERYABLE, GRANT READ TO "_creator", GRANT WRITE, CREATE TO Moderator);
            RECORD TYPE Tag (label STRING);
        """

    @Test("A .ckdb's roles and grants are kept, exported back, and replaced type by type", arguments: TestEngine.allCases)
    func policyRoundTrip(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        #expect(try await store.securityPolicy() == SecurityPolicy())
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.document))
        let policy = try await store.securityPolicy()
        #expect(policy.roles == ["Moderator"])
        #expect(policy.grants == ["Note": [CloudKitSchemaGrant(permissions: [.read], role: "_creator"),
                                           CloudKitSchemaGrant(permissions: [.write, .create], role: "Moderator")]])
        #expect(policy.effectiveGrants(for: "Tag") == SecurityPolicy.defaultGrants)
        let exported = try await store.schemaDocument()
        #expect(exported.roles == ["Moderator"])
        #expect(exported.recordTypes.map(\.name) == ["Note", "Tag"])
        #expect(exported.recordTypes.first?.grants == policy.grants["Note"])

        // A document naming Note without grants gives it the defaults back; Tag keeps its own.
        try await store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE);"))
        #expect(try await store.securityPolicy().grants["Note"] == nil)
        #expect(try await store.securityPolicy().roles == ["Moderator"])
    }

    @Test("Custom roles are assigned, listed and taken away; an undeclared role is refused", arguments: TestEngine.allCases)
    func roleHolders(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.document))
        try await store.assignRole("Moderator", to: "_ada")
        try await store.assignRole("Moderator", to: "_ada")
        try await store.assignRole("Moderator", to: "_bob")
        #expect(try await store.roles(of: "_ada") == ["Moderator"])
        #expect(try await store.roleAssignments() == ["Moderator": ["_ada", "_bob"]])
        try await store.removeRole("Moderator", from: "_ada")
        #expect(try await store.roles(of: "_ada") == [])
        #expect(try await store.roleAssignments() == ["Moderator": ["_bob"]])
        await #expect(throws: RecordStoreError.unknownRole("Editor", declaredRoles: ["Moderator"])) {
            try await store.assignRole("Editor", to: "_ada")
        }
    }

    @Test("Access follows the grants: all records, the caller's own, or none")
    func access() throws {
        let policy = SecurityPolicy(roles: ["Moderator"], grants: [
            "Note": [CloudKitSchemaGrant(permissions: [.read], role: "_creator"), CloudKitSchemaGrant(permissions: [.write, .create], role: "Moderator")],
        ])
        let ada = SecurityPrincipal(userRecordName: "_ada"), moderator = SecurityPrincipal(userRecordName: "_bob", roles: ["Moderator"])
        #expect(policy.access(.read, to: "Note", for: ada) == .ownRecords)
        #expect(policy.access(.read, to: "Note", for: .anonymous) == RecordAccess.none)
        #expect(policy.access(.write, to: "Note", for: moderator) == .allRecords)
        #expect(policy.access(.write, to: "Note", for: ada) == RecordAccess.none)
        #expect(policy.allows(.read, on: "Note", createdBy: "_ada", for: ada))
        #expect(!policy.allows(.read, on: "Note", createdBy: "_bob", for: ada))
        #expect(policy.access(.read, to: "Tag", for: .anonymous) == .allRecords)
        #expect(policy.allows(.create, on: "Tag", createdBy: nil, for: ada))
        #expect(!policy.allows(.create, on: "Tag", createdBy: nil, for: .anonymous))

        let query = try RecordQuery(recordType: "Note", predicate: FormatPredicate(format: "title BEGINSWITH 'a'"))
        #expect(policy.readable(query, for: ada)?.predicate.predicateFormat == #"title BEGINSWITH "a" AND creatorUserRecordName == "_ada""#)
        #expect(policy.readable(query, for: .anonymous) == nil)
        #expect(policy.refusal(.read, on: "Note", for: .anonymous) == "record type 'Note' grants READ to '_creator', not to a caller who is not signed in")
    }
}

import Foundation
import PredicateLanguage

/// The security policy and the holders of custom roles, kept in the store itself (the zone
/// `security`), so that every server over one store enforces the same at once.
extension Store {
    /// The zone that keeps the policy and the role assignments.
    static let securityZone = SystemZones.security
    static let policyRecordType = "QuerySecurityPolicy"  // one of ``SystemRecordTypes``
    static let roleMemberRecordType = "QuerySecurityRoleMember"
    private static let policyRecordID = RecordID(recordName: "policy", zoneID: securityZone)

    /// The store's security policy: the roles and grants its last `.ckdb` declared
    /// (`apply(_:progress:)`), or none (every record type has the defaults).
    ///
    /// ```swift
    /// let policy = try await store.securityPolicy()
    /// policy.effectiveGrants(for: "Note")
    /// ```
    public func securityPolicy() async throws(RecordStoreError) -> SecurityPolicy {
        let record: Record?
        do throws(RecordStoreError) {
            record = try await self.record(for: Self.policyRecordID)
        } catch .zoneNotFound, .unknownRecordType {
            return SecurityPolicy()
        }
        guard let record else { return SecurityPolicy() }
        // The record is read every time, so a change made anywhere holds at once; decoding it
        // again is skipped while its change tag is the one last decoded (a server reads the
        // policy on every request).
        if let changeTag = record.recordChangeTag, let decoded = decodedRecords.withLock({ $0[Self.policyRecordID] }),
           decoded.changeTag == changeTag, let policy = decoded.value as? SecurityPolicy {
            return policy
        }
        guard case .string(let json)? = record["document"] else {
            throw .storage("the security policy record holds no document")
        }
        let policy: SecurityPolicy
        do {
            policy = try JSONDecoder().decode(SecurityPolicy.self, from: Data(json.utf8))
        } catch {
            throw .storage("the security policy record does not decode: \(error)")
        }
        if let changeTag = record.recordChangeTag {
            decodedRecords.withLock { $0[Self.policyRecordID] = (changeTag, policy) }
        }
        return policy
    }

    /// Replaces the store's security policy.
    ///
    /// ```swift
    /// try await store.setSecurityPolicy(SecurityPolicy(roles: ["Moderator"], grants: ["Note": SecurityPolicy.defaultGrants]))
    /// ```
    public func setSecurityPolicy(_ policy: SecurityPolicy) async throws(RecordStoreError) {
        try await prepareSecurityZone()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json: Data
        do { json = try encoder.encode(policy) } catch { throw .storage("the security policy does not encode: \(error)") }
        var record = try await self.record(for: Self.policyRecordID)
            ?? Record(recordType: Self.policyRecordType, recordID: Self.policyRecordID)
        record["document"] = .string(String(decoding: json, as: UTF8.self))
        _ = try await save([record])
    }

    /// Gives a user a custom role the policy declares; giving it again changes nothing.
    ///
    /// ```swift
    /// try await store.assignRole("Moderator", to: "_3f9c...")
    /// ```
    public func assignRole(_ role: String, to userRecordName: String) async throws(RecordStoreError) {
        let declared = try await securityPolicy().roles
        guard declared.contains(role) else { throw .unknownRole(role, declaredRoles: declared) }
        try await prepareSecurityZone()
        var record = Record(recordType: Self.roleMemberRecordType, recordID: Self.roleMemberID(role, userRecordName))
        record["role"] = .string(role)
        record["user"] = .string(userRecordName)
        _ = try await save([record], policy: .allKeys)
    }

    /// Takes a custom role from a user; a role the user does not hold changes nothing.
    ///
    /// ```swift
    /// try await store.removeRole("Moderator", from: "_3f9c...")
    /// ```
    public func removeRole(_ role: String, from userRecordName: String) async throws(RecordStoreError) {
        do throws(RecordStoreError) {
            try await delete([Self.roleMemberID(role, userRecordName)])
        } catch .zoneNotFound {
            return
        }
    }

    /// The custom roles a user holds.
    ///
    /// ```swift
    /// try await store.roles(of: "_3f9c...")   // ["Moderator"]
    /// ```
    public func roles(of userRecordName: String) async throws(RecordStoreError) -> Set<String> {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: "user == %@", argumentArray: [.string(userRecordName)])
        } catch {
            throw .invalidQuery("the role lookup could not be written: \(error)")
        }
        return Set(try await roleMembers(matching: predicate).map(\.role))
    }

    /// Every assignment of a custom role: the users holding each role, by role, in record-name order.
    ///
    /// ```swift
    /// try await store.roleAssignments()   // ["Moderator": ["_3f9c..."]]
    /// ```
    public func roleAssignments() async throws(RecordStoreError) -> [String: [String]] {
        var assignments: [String: [String]] = [:]
        for member in try await roleMembers(matching: .truePredicate) { assignments[member.role, default: []].append(member.user) }
        return assignments.mapValues { $0.sorted() }
    }

    /// The role assignments a predicate matches.
    private func roleMembers(matching predicate: FormatPredicate) async throws(RecordStoreError) -> [(role: String, user: String)] {
        let records: [Record]
        do throws(RecordStoreError) {
            records = try await self.records(ofType: Self.roleMemberRecordType, matching: predicate, zone: Self.securityZone)
        } catch .zoneNotFound, .unknownRecordType {
            return []
        }
        return records.compactMap { record in
            guard case .string(let role)? = record["role"], case .string(let user)? = record["user"] else { return nil }
            return (role, user)
        }
    }

    /// The record of one assignment: the role and the user, apart by a character neither has.
    private static func roleMemberID(_ role: String, _ userRecordName: String) -> RecordID {
        RecordID(recordName: role + ":" + userRecordName, zoneID: securityZone)
    }

    /// Creates the zone and the record types, once.
    private func prepareSecurityZone() async throws(RecordStoreError) {
        try await createZone(Self.securityZone)
        if try await schema(for: Self.policyRecordType) == nil {
            try await define(RecordTypeSchema(name: Self.policyRecordType, fields: [
                FieldSchema(name: "document", type: .string, isQueryable: false, isSortable: false),
            ]))
        }
        if try await schema(for: Self.roleMemberRecordType) == nil {
            try await define(RecordTypeSchema(name: Self.roleMemberRecordType, fields: [
                FieldSchema(name: "role", type: .string, isQueryable: true, isSortable: false),
                FieldSchema(name: "user", type: .string, isQueryable: true, isSortable: false),
            ]))
        }
    }
}

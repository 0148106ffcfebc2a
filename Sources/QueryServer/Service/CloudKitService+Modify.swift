// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// `records/modify`: creates, updates, replaces and deletes records (`ModifyOperation`),
    /// at most 200 a request. With `atomic` (the default) everything is written in one
    /// transaction or nothing is: the failing operations carry their error and every other one
    /// `ATOMIC_ERROR`. Answers `{"records": [...]}`, one entry per operation in order: the saved
    /// record, `{recordName, deleted: true}`, or an error entry (a `CONFLICT` carries the
    /// server's record).
    ///
    /// An `ASSETID` value is resolved before anything is saved (`resolveAssets(in:namespace:)`):
    /// its receipt must be this server's, unexpired and made for that field of that record, its
    /// `fileChecksum` and `size` the receipt's, and its bytes stored; they are then kept for good
    /// (no longer removed as an unreferenced upload).
    ///
    /// The saved records name the database's owner as their creator and last modifier.
    public func modify(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await modifyAnswer(body, in: namespace, principal: .owner(of: namespace.database), links: nil).jsonValue()
    }

    /// ``modify(_:in:)`` for a principal (the user the saves name, and whether security roles
    /// hold them: ``RequestPrincipal``), with the links of the answer's assets (``AssetLinks``).
    /// An operation the grants refuse is `ACCESS_DENIED` for its record: `CREATE` on the record
    /// type for a create (and for a replace that changes the type), `WRITE` on the stored record
    /// for every other operation. A held principal's deletions and forced saves then expect the
    /// change tag of the record that was checked, so that a record changed meanwhile is a
    /// conflict, never a write past the check.
    ///
    /// With `shared` (a zone of the principal's shared database, ``SharedZone``), `namespace` is
    /// the zone owner's private database and every operation needs `READ_WRITE` through the
    /// principal's shares (``sharedWriteRefusal(of:saving:stored:in:)``).
    ///
    /// The answer is written into bytes by the route (``RecordsAnswer/jsonBytes()``), its saved
    /// records straight from the store's.
    func modifyAnswer(
        _ body: JSONValue, in namespace: Namespace, principal: RequestPrincipal, links: AssetLinks?, shared: SharedZone? = nil
    ) async throws(ServerError) -> RecordsAnswer {
        var style = answerStyle(namespace, links: links)
        if let shared { style.zoneOwner = shared.ownerRecordName }
        let request = try RequestBodyDecoder.decode(RecordsModifyRequest.self, from: body)
        let zone = try await zone(request.zoneID, in: namespace)
        let zoneName = namespace.clientZoneName(zone) ?? zone.zoneName
        let numbersAsStrings = request.numbersAsStrings
        // In production, a new record type or field is refused (a per-record BAD_REQUEST).
        let store = try await self.store(for: namespace)
        let check = try await securityCheck(for: principal, in: store)
        let atomic = request.atomic
        var operations: [ModifyOperation] = []
        for operation in request.operations { operations.append(try ModifyOperation(operation, zone: zone, namespace: namespace)) }
        guard Set(operations.map(\.id)).count == operations.count else {
            throw ServerError(.badRequest, "a record may appear in only one operation of a request")
        }
        // Shares are saved and deleted apart, after the other records (their roots among them).
        let shareIndexes = try await shareOperationIndexes(operations, in: namespace, store: store)

        // What the operations start from: the stored records they name.
        let readIDs = operations.filter { check != nil || shared != nil ? $0.kind != .create : $0.kind.readsStoredRecord }.map(\.id)
        let stored = readIDs.isEmpty ? [:] : try await run { () async throws(RecordStoreError) in try await store.records(for: readIDs) }
        func storedRecord(_ id: RecordID) -> Record? {
            if case .success(let record)? = stored[id] { return record }
            return nil
        }

        var outcomes = [Result<JSONValue, ModifyFailure>?](repeating: nil, count: operations.count)
        var saves: [Record] = []
        var deletions: [RecordID] = []
        var expectedTags: [RecordID: String] = [:]
        for (index, operation) in operations.enumerated() {
            if let check, let refusal = Self.refusal(of: operation, stored: storedRecord(operation.id), check: check) {
                outcomes[index] = .failure(refusal)
                continue
            }
            if let shared {
                if shareIndexes.contains(index) {
                    outcomes[index] = .failure(ModifyFailure(.accessDenied, "record '\(operation.id.recordName)': only the share's owner saves or deletes a share"))
                    continue
                }
                let toSave = operation.kind.isDeletion ? nil : try? operation.recordToSave(stored: storedRecord(operation.id)).get()
                if let refusal = try await sharedWriteRefusal(of: operation, saving: toSave, stored: storedRecord(operation.id), in: shared) {
                    outcomes[index] = .failure(refusal)
                    continue
                }
            } else if shareIndexes.contains(index) {
                continue
            }
            switch operation.kind {
            case .delete:
                guard storedRecord(operation.id) != nil else {
                    outcomes[index] = .failure(ModifyFailure(.notFound, "record '\(operation.id.recordName)' was not found"))
                    continue
                }
                deletions.append(operation.id)
                expectedTags[operation.id] = operation.changeTag ?? (check != nil ? storedRecord(operation.id)?.recordChangeTag : nil)
            case .forceDelete:
                deletions.append(operation.id)
                if check != nil, let tag = storedRecord(operation.id)?.recordChangeTag { expectedTags[operation.id] = tag }
            default:
                switch operation.recordToSave(stored: storedRecord(operation.id)) {
                case .success(let record):
                    switch await resolveAssets(in: record, namespace: namespace) {
                    case .success(let resolved): saves.append(resolved)
                    case .failure(let failure): outcomes[index] = .failure(failure)
                    }
                case .failure(let failure): outcomes[index] = .failure(failure)
                }
            }
        }
        if atomic, outcomes.contains(where: { $0 != nil }) {
            // One operation cannot run: an atomic request writes nothing.
            return RecordsAnswer(zoneName: zoneName, numbersAsStrings: numbersAsStrings, style: style, entries: operations.enumerated().map { index, operation in
                if case .failure(let failure)? = outcomes[index] { return .json(Self.recordError(operation.id.recordName, failure.code, failure.reason)) }
                return .json(Self.recordError(operation.id.recordName, .atomicError, "another operation of this atomic request failed"))
            })
        }

        // A request that would grow the schema past the store's limits writes nothing. An atomic
        // request is one save, which the store holds to the limits as one, against the catalog
        // of its own transaction: its refusal is answered as the request's below, and a read of
        // the catalog before it would only cost a round trip. A request saved a record at a time
        // is checked here, as one.
        if !atomic { try await checkSchemaGrowth(of: saves, in: store) }
        let result = try await run { () async throws(RecordStoreError) in
            try await store.modify(saving: saves, deleting: deletions, expectedChangeTags: expectedTags, atomically: atomic, author: principal.userRecordName)
        }
        if atomic, let refusal = Self.schemaLimitRefusal(in: result) { throw refusal }
        var shareAnswers: [Int: JSONValue] = [:]
        for index in shareIndexes.sorted() where outcomes[index] == nil {
            shareAnswers[index] = try await runShareOperation(operations[index], in: namespace, store: store, zoneName: zoneName)
        }
        let saved = operations.indices.filter { !operations[$0].kind.isDeletion && !shareIndexes.contains($0) }
        // A record this request created was stored nowhere before it, and deleting a share's root
        // deletes the share: it can be a share's root only through a share of this request.
        if !shareIndexes.isEmpty || saved.contains(where: { operations[$0].kind != .create }) {
            style.rootShares = try await rootShares(of: saved.map { operations[$0].id }, in: namespace, store: store)
        }
        var answers: [RecordsAnswer.Entry] = []
        answers.reserveCapacity(operations.count)
        for (index, operation) in operations.enumerated() {
            if case .failure(let failure)? = outcomes[index] {
                answers.append(.json(Self.recordError(operation.id.recordName, failure.code, failure.reason)))
                continue
            }
            if let answer = shareAnswers[index] {
                answers.append(.json(answer))
                continue
            }
            let outcome: Result<Record?, RecordStoreError> = operation.kind.isDeletion
                ? (result.deleteResults[operation.id] ?? .success(())).map { nil }
                : (result.saveResults[operation.id] ?? .failure(.batchRequestFailed(operation.id))).map { $0 }
            switch outcome {
            case .success(let record?):
                answers.append(.record(record, desiredKeys: operation.desiredKeys))
            case .success(nil):
                answers.append(.json(WireRecord.deletedJSON(recordName: operation.id.recordName, zoneName: zoneName)))
            case .failure(let error):
                answers.append(.json(try await errorEntry(error, operation: operation, in: store, zoneName: zoneName, numbersAsStrings: numbersAsStrings, style: style)))
            }
        }
        return RecordsAnswer(zoneName: zoneName, numbersAsStrings: numbersAsStrings, style: style, entries: answers)
    }

    /// The `BAD_REQUEST` of an atomic request whose saves the store refused for growing the
    /// schema past its limits (``checkSchemaGrowth(of:in:)`` says why a request is refused as
    /// one), or nil.
    private static func schemaLimitRefusal(in result: ModifyResult) -> ServerError? {
        for outcome in result.saveResults.values {
            if case .failure(let error) = outcome, case .schemaLimitExceeded = error { return ServerError(.badRequest, error.description) }
        }
        return nil
    }

    /// The `ACCESS_DENIED` of an operation the grants refuse, or nil when they allow it: `CREATE`
    /// for a new record (a create, or a forced replace of a record that is not there) and for the
    /// new type of a replace, `WRITE` on the stored record otherwise.
    private static func refusal(of operation: ModifyOperation, stored: Record?, check: SecurityCheck) -> ModifyFailure? {
        let name = operation.id.recordName
        guard let stored, operation.kind != .create else {
            guard let type = operation.recordType, !operation.kind.isDeletion else { return nil }
            return check.mayCreate(type) ? nil : ModifyFailure(.accessDenied, check.reason(.create, recordType: type, recordName: name))
        }
        if !check.mayWrite(stored) { return ModifyFailure(.accessDenied, check.reason(.write, recordType: stored.recordType, recordName: name)) }
        if let type = operation.recordType, type != stored.recordType, operation.kind == .replace || operation.kind == .forceReplace, !check.mayCreate(type) {
            return ModifyFailure(.accessDenied, check.reason(.create, recordType: type, recordName: name))
        }
        return nil
    }

    /// The error entry of an operation the store refused; a conflict carries the stored record.
    private func errorEntry(
        _ error: RecordStoreError, operation: ModifyOperation, in store: Store, zoneName: String, numbersAsStrings: Bool, style: RecordAnswerStyle
    ) async throws(ServerError) -> JSONValue {
        let name = operation.id.recordName
        switch error {
        case .conflict:
            let current = try await run { () async throws(RecordStoreError) in try await store.record(for: operation.id) }
            if operation.kind == .create, current != nil {
                return Self.recordError(name, .exists, "record '\(name)' already exists")
            }
            guard let current else { return Self.recordError(name, .notFound, "record '\(name)' was deleted meanwhile") }
            return Self.recordError(name, .conflict, "record '\(name)' was changed by another request (its change tag is no longer the one given)",
                                    serverRecord: WireRecord.json(current, zoneName: zoneName, desiredKeys: nil, numbersAsStrings: numbersAsStrings, style: style))
        case .batchRequestFailed:
            return Self.recordError(name, .atomicError, "another operation of this atomic request failed")
        case .recordNotFound:
            return Self.recordError(name, .notFound, "record '\(name)' was not found")
        case .serverUnavailable:
            // The database is out of reach: the whole request is answered 503, never a per-record
            // error inside a 200.
            throw Self.serverError(error)
        default:
            let server = Self.serverError(error)
            return Self.recordError(name, server.code, server.reason)
        }
    }
}
#endif

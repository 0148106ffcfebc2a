import PredicateLanguage

/// What went wrong in a store operation. Every case names the record, field, type
/// or zone involved, and ``description`` says it in a sentence.
///
/// ```swift
/// do { _ = try store.save([staleCopy]) }
/// catch RecordStoreError.conflict(let id, _, _) { print("someone else changed \(id)") }
/// ```
public enum RecordStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A save found a different change tag than the record carries (CloudKit's
    /// `serverRecordChanged`): `expected` is the record's tag (nil for a new record),
    /// `found` the stored one (nil when no record is stored). Nothing was saved.
    case conflict(RecordID, expected: String?, found: String?)
    /// The same record appears twice in one save.
    case duplicateRecordID(RecordID)
    /// The zone does not exist.
    case zoneNotFound(ZoneID)
    /// The default zone cannot be deleted.
    case cannotDeleteDefaultZone
    /// A zone name is empty or holds a NUL character.
    case invalidZoneName(String)
    /// A record name holds a NUL character (U+0000), which cannot be stored.
    case invalidRecordName(String)
    /// A record type name is not letters, digits and underscores starting with a letter (at most 255),
    /// or starts with `sqlite_` (reserved by SQLite).
    case invalidRecordTypeName(String)
    /// A field name is not letters, digits and underscores starting with a letter, or is a metadata name.
    case invalidFieldName(String, recordType: String)
    /// A field arrived with a type different from its schema's.
    case typeMismatch(field: String, recordType: String, schemaType: FieldType, valueType: String)
    /// A field holds a value that cannot be stored (an object, a list of mixed or nested members).
    case unsupportedValue(field: String, recordType: String, reason: String)
    /// The store has never had this record type (a query names it); `suggestions` are the
    /// existing types with the closest names. (A production-mode save that brings a new type is
    /// ``schemaChangeNotAllowed(recordType:field:)``.)
    case unknownRecordType(String, suggestions: [String] = [])
    /// The record type has never had this field (a query's predicate or sort names it, or a
    /// production-mode save brings it); `suggestions` are its fields with the closest names.
    case unknownField(String, recordType: String, suggestions: [String] = [])
    /// Production mode forbids adding this record type or field.
    case schemaChangeNotAllowed(recordType: String, field: String?)
    /// The field has no queryable index (production mode).
    case notQueryable(field: String, recordType: String)
    /// The field has no sortable index (production mode).
    case notSortable(field: String, recordType: String)
    /// The record type has no searchable field for `self CONTAINS` (production mode).
    case notSearchable(recordType: String)
    /// The field is not searchable, and a token search names it (`tokenize:using:`, CloudKit's
    /// `CONTAINS_ALL_TOKENS` and `CONTAINS_ANY_TOKENS` on a field) (production mode).
    case fieldNotSearchable(field: String, recordType: String)
    /// A sort that cannot run: a list, bytes, location or reference field, or a bad distance key.
    case invalidSort(key: String, reason: String)
    /// The predicate failed to compile or evaluate.
    case predicate(FormatPredicateError)
    /// The underlying database failed.
    case storage(String)
    /// An import file is malformed at a line (1-based); nothing of the batch holding it was written.
    case malformedInput(file: String, line: Int, message: String)
    /// A query, fetch request or batch asks for something that cannot run (the message says what).
    case invalidQuery(String)
    /// A cursor string could not be used: malformed, tampered with, from another store, or for another query or zone.
    case invalidCursor(CursorProblem)
    /// The operation was cancelled before it finished.
    case cancelled
    /// A record looked up by ID does not exist (CloudKit's `unknownItem`).
    case recordNotFound(RecordID)
    /// An atomic batch failed because of another record; nothing of the batch was written (CloudKit's `batchRequestFailed`).
    case batchRequestFailed(RecordID)
    /// A store location could not be used: an unknown URL scheme, or a malformed URL (the reason says which).
    case invalidStoreLocation(String, reason: String)
    /// A synchronous method was called on a store whose engine answers only `async` calls (a server database).
    case synchronousAccessUnavailable(engine: String)
    /// A database server could not be used: unreachable, refused the credentials, has no such
    /// database, or closed the connection (`server` is `host:port/database`; the reason says which).
    /// Nothing of the operation that met it was committed unless the reason says otherwise.
    case serverUnavailable(server: String, reason: String)
    /// The store is open read-only and refused a write (a save or delete, a zone, schema or
    /// asset change) or a live observation: a PostgreSQL store opened on a hot standby, a server
    /// in recovery that answers reads and takes no writes (`server` is `host:port/database`; the
    /// reason says what was refused and where to do it instead). Nothing was written.
    case readOnlyStore(server: String, reason: String)
    /// A fetch request template cannot be declared: its name is empty, its predicate does not
    /// parse, or its record type does not exist (the reason says which).
    case invalidFetchRequestTemplate(String, reason: String)
    /// The store has no fetch request template of this name; `known` are the ones it has, by name.
    case unknownFetchRequestTemplate(String, known: [String])
    /// A template's predicate uses this `$VARIABLE` and no value was given for it; `variables`
    /// are all the template's variables, by name.
    case missingSubstitutionVariable(String, template: String, variables: [String])
    /// A custom role the store's security policy does not declare (`CREATE ROLE`); `declaredRoles`
    /// are the ones it does.
    case unknownRole(String, declaredRoles: [String])
    /// A relationship cannot be defined: its destination or inverse is missing, or its field has
    /// another type (`reason` says which).
    case invalidRelationship(String, recordType: String, reason: String)
    /// A key path walks through a field that is neither a relationship nor a reference
    /// (`population.name`): it would read nil for every record.
    case notARelationship(field: String, recordType: String, keyPath: String)
    /// An engine that plans key paths through relationships cannot decide this one (of a
    /// relationship of `recordType`) exactly; `Store` then answers the query itself, so this
    /// error does not reach callers of ``Store``.
    case relationshipWalkNotPlanned(String, recordType: String)
    /// A delete was refused by a relationship whose deletion rule is deny: `record` still
    /// reaches `blockedBy` through `relationship` of `recordType`. Nothing was saved or deleted.
    case deleteDenied(RecordID, relationship: String, recordType: String, blockedBy: RecordID)
    /// A schema change is committed, but indexes it asks for are not built yet: a PostgreSQL
    /// store builds those a change adds to a table holding records after the change commits
    /// (`CREATE INDEX CONCURRENTLY`), and that build failed. The record types are defined as
    /// asked and queries answer exactly, only more slowly; the store builds the indexes again
    /// when it is next opened. `recordTypes` are the types whose indexes wait, by name;
    /// `reason` is the build's error.
    case indexBuildPending(recordTypes: [String], reason: String)
    /// A change token was refused: not a token of this store, altered, or a token of another
    /// zone (or of the database's zone changes where a zone's was expected).
    case invalidChangeToken(CursorProblem)
    /// A change token is older than the history the store keeps (its tombstones were pruned, or
    /// its zone was deleted and created again since): the client must read everything again
    /// (CloudKit's `CHANGE_TOKEN_EXPIRED`). `zone` is the token's zone, nil for the database's.
    case changeTokenExpired(zone: ZoneID?)
    /// A save would grow the schema past one of the store's ``SchemaLimits``: `bound` is the
    /// bound, `recordType` the type it concerns (nil for the store's count of types or the
    /// save's count of changes), `count` what the save would make it, `limit` the bound's value.
    /// Nothing was saved.
    case schemaLimitExceeded(SchemaLimits.Bound, recordType: String?, count: Int, limit: Int)
    /// A query stopped: testing its predicate on the records went past one of the limits its
    /// caller set (``QueryCostLimits``): the steps of all the records' evaluations together, or
    /// the deadline.
    case queryTooExpensive(EvaluationLimit)
    /// A backup or a restore was refused (``Store/backup(to:)``, `Store.restore(from:to:replacing:)`):
    /// the refusal says why and where.
    case backupRefused(StoreBackupRefusal)
    /// A sharing operation failed (``Store/saveShare(_:as:)``, ``Store/acceptShare(shortGUID:as:emailAddress:)``,
    /// …): the problem says which share and why.
    case sharing(ShareProblem)
    /// A save broke the rules of its records' types (``FieldValidation``, a relationship's
    /// ``RelationshipSchema/isRequired`` and counts): every failure, in the order of the records
    /// and their fields. Nothing was written. Its Core Data code is the failures'
    /// ``Swift/Array/code`` (1560 for several).
    case validationFailed([ValidationFailure])
    /// A batch update (`Store.updateRecords(matching:set:author:)`) cannot run as asked:
    /// it sets no field, say.
    case invalidBatchUpdate(recordType: String, reason: String)
    /// A model version cannot be applied to the store by lightweight migration (a field's type
    /// would change, a new required field has no default on a type that holds records, …):
    /// every problem. Nothing was changed.
    case migrationRefused([MigrationProblem])
    /// A save gave a record of an abstract record type (``RecordTypeSchema/isAbstract``, a Core
    /// Data entity's `isAbstract`): only the types below it hold records. Nothing was written.
    case abstractRecordType(String, record: RecordID)
    /// A save, under ``MergePolicy/error``, inserts or updates records whose constrained fields
    /// (``RecordTypeSchema/uniquenessConstraints``) equal those of other records of their type
    /// in their zone: every conflict, naming both records and the constraint (Core Data's
    /// `NSManagedObjectConstraintMergeError`, code 1551). Nothing was written.
    case constraintConflict([ConstraintConflict])

    public var description: String {
        switch self {
        case .conflict(let id, let expected, let found):
            switch (expected, found) {
            case (nil, _?):
                return "Record '\(id)' already exists (save it with its current change tag to update it)"
            case (_?, nil):
                return "Record '\(id)' no longer exists (it was deleted since it was fetched)"
            default:
                return "Record '\(id)' was changed by someone else: its change tag is '\(found ?? "nil")', the saved copy had '\(expected ?? "nil")'"
            }
        case .duplicateRecordID(let id):
            return "Record '\(id)' appears more than once in the same save"
        case .zoneNotFound(let zone):
            return "Zone '\(zone.zoneName)' does not exist"
        case .cannotDeleteDefaultZone:
            return "The default zone '\(ZoneID.default.zoneName)' cannot be deleted"
        case .invalidZoneName(let name):
            return "Invalid zone name '\(name)': a zone name must not be empty or hold a NUL character"
        case .invalidRecordName(let name):
            return "Invalid record name '\(name)': a record name must not hold a NUL character"
        case .invalidRecordTypeName(let name):
            return "Invalid record type name '\(name)': use letters, digits and underscores, starting with a letter (at most 255), not starting with sqlite_"
        case .invalidFieldName(let name, let type):
            return "Invalid field name '\(name)' in record type '\(type)': use letters, digits and underscores, starting with a letter, and not a metadata name"
        case .typeMismatch(let field, let type, let schemaType, let valueType):
            return "Field '\(field)' of record type '\(type)' has type \(schemaType), but a value of type \(valueType) arrived"
        case .unsupportedValue(let field, let type, let reason):
            return "Field '\(field)' of record type '\(type)' cannot be stored: \(reason)"
        case .unknownRecordType(let type, let suggestions):
            return "Did not find record type '\(type)'" + NameSuggestions.didYouMean(suggestions)
        case .unknownField(let field, let type, let suggestions):
            return "Field '\(field)' does not exist in record type '\(type)'" + NameSuggestions.didYouMean(suggestions)
        case .schemaChangeNotAllowed(let type, let field):
            if let field {
                return "Cannot add field '\(field)' to record type '\(type)' in production mode"
            }
            return "Cannot create record type '\(type)' in production mode"
        case .notQueryable(let field, let type):
            return "Field '\(field)' is not marked queryable (record type '\(type)')"
        case .notSortable(let field, let type):
            return "Field '\(field)' is not marked sortable (record type '\(type)')"
        case .notSearchable(let type):
            return "Record type '\(type)' has no field marked searchable"
        case .fieldNotSearchable(let field, let type):
            return "Field '\(field)' is not marked searchable (record type '\(type)')"
        case .invalidSort(let key, let reason):
            return "Cannot sort by '\(key)': \(reason)"
        case .predicate(let error):
            return error.description
        case .storage(let message):
            return "Storage error: \(message)"
        case .malformedInput(let file, let line, let message):
            return "\(file):\(line): \(message)"
        case .invalidQuery(let message):
            return "Invalid query: \(message)"
        case .invalidCursor(let problem):
            return "Invalid cursor: \(problem)"
        case .cancelled:
            return "The operation was cancelled"
        case .recordNotFound(let id):
            return "Record '\(id)' does not exist"
        case .batchRequestFailed(let id):
            return "Record '\(id)' was not written: another record of the same atomic batch failed"
        case .invalidStoreLocation(let location, let reason):
            return "Cannot open a store at '\(location)': \(reason)"
        case .serverUnavailable(let server, let reason):
            return "The database server \(server) cannot be used: \(reason)"
        case .readOnlyStore(let server, let reason):
            return "The store on \(server) is read-only: \(reason)"
        case .synchronousAccessUnavailable(let engine):
            return "The \(engine) engine answers only async calls: call the async form of this method (with await)"
        case .invalidFetchRequestTemplate(let name, let reason):
            return "Fetch request template '\(name)' cannot be defined: \(reason)"
        case .unknownFetchRequestTemplate(let name, let known):
            let list = known.isEmpty ? "the store has none" : "the store has " + known.map { "'\($0)'" }.joined(separator: ", ")
            return "Did not find fetch request template '\(name)' (\(list))"
        case .missingSubstitutionVariable(let variable, let template, let variables):
            let list = variables.map { "$\($0)" }.joined(separator: ", ")
            return "Fetch request template '\(template)' needs a value for $\(variable) (its variables: \(list))"
        case .unknownRole(let role, let declared):
            let list = declared.isEmpty ? "the schema declares none (CREATE ROLE in a .ckdb file)" : "the schema declares " + declared.map { "'\($0)'" }.joined(separator: ", ")
            return "There is no role '\(role)': \(list)"
        case .invalidRelationship(let name, let type, let reason):
            return "Relationship '\(name)' of record type '\(type)' cannot be defined: \(reason)"
        case .notARelationship(let field, let type, let keyPath):
            return "The key path '\(keyPath)' walks through '\(field)' of record type '\(type)', which is not a relationship or a reference"
        case .relationshipWalkNotPlanned(let name, let type):
            return "The engine cannot plan the key path through relationship '\(name)' of record type '\(type)'"
        case .deleteDenied(let id, let relationship, let type, let blocker):
            return "Cannot delete \(id): relationship '\(relationship)' of record type '\(type)' has deletion rule Deny "
                + "and still reaches \(blocker)"
        case .indexBuildPending(let recordTypes, let reason):
            let types = recordTypes.map { "'\($0)'" }.joined(separator: ", ")
            return "The schema change is committed, but the indexes of \(types) are not built yet: \(reason). "
                + "Queries answer without them, more slowly; they are built when the store is next opened"
        case .invalidChangeToken(let problem):
            return "Invalid change token: \(problem)"
        case .changeTokenExpired(let zone?):
            return "The change token of zone '\(zone.zoneName)' has expired: the store no longer keeps the history after it. Read the zone's changes again without a token"
        case .changeTokenExpired(nil):
            return "The database change token has expired: the store no longer keeps the history after it. Read the database's changes again without a token"
        case .schemaLimitExceeded(let bound, let type, let count, let limit):
            switch bound {
            case .fieldsPerRecordType:
                return "Record type '\(type ?? "")' would have \(count) fields; a record type may have at most \(limit) (fieldsPerRecordType)"
            case .recordTypes:
                return "The store would have \(count) record types; it may have at most \(limit) (recordTypes)"
            case .changesPerSave:
                return "The save would make \(count) schema changes (new record types, new fields, field types changed); a save may make at most \(limit) (changesPerSave)"
            }
        case .queryTooExpensive(.steps(let limit)):
            return "The query is too expensive: testing its predicate on the records took more than \(limit) evaluation steps "
                + "(collection members visited by SUBQUERY, ANY, ALL, NONE and collection operators), the limit its caller set "
                + "(QueryCostLimits.maximumEvaluationSteps)"
        case .queryTooExpensive(.deadline):
            return "The query is too expensive: its predicate was still being tested on the records at the deadline its caller set "
                + "(QueryCostLimits.deadline)"
        case .backupRefused(let refusal):
            return "Backup refused: \(refusal)"
        case .sharing(let problem):
            return "Sharing: \(problem)"
        case .validationFailed(let failures):
            let lines = failures.map { "\n  \($0)" }.joined()
            return failures.count == 1
                ? "The save broke a rule of the schema: \(failures[0])"
                : "The save broke \(failures.count) rules of the schema (\(ValidationErrorCode.multipleErrors)):\(lines)"
        case .invalidBatchUpdate(let recordType, let reason):
            return "The batch update of \(recordType) records cannot run: \(reason)"
        case .migrationRefused(let problems):
            let lines = problems.map { "\n  \($0)" }.joined()
            return "The model version cannot be applied by lightweight migration; nothing was changed:\(lines)"
        case .abstractRecordType(let recordType, let record):
            return "Record \(record.recordName) cannot be saved: \(recordType) is an abstract record type; save a record of one of its subtypes"
        case .constraintConflict(let conflicts):
            let lines = conflicts.map { "\n  \($0)" }.joined()
            return conflicts.count == 1
                ? "The save broke a uniqueness constraint (1551 NSManagedObjectConstraintMergeError): \(conflicts[0])"
                : "The save broke uniqueness constraints \(conflicts.count) times (1551 NSManagedObjectConstraintMergeError):\(lines)"
        }
    }
}

extension RecordStoreError {
    /// An error thrown while compiling or evaluating a predicate (or by the store itself), as a store error.
    ///
    /// ```swift
    /// do { _ = try compiled.evaluate(object) } catch { throw RecordStoreError(evaluating: error) }
    /// ```
    /// Any error as a store error: itself when it is one, ``cancelled`` for a cancellation,
    /// ``storage(_:)`` with its description otherwise.
    @_spi(StorageEngine) public init(thrownBy error: any Error) {
        switch error {
        case let error as RecordStoreError: self = error
        case is CancellationError: self = .cancelled
        default: self = .storage(String(describing: error))
        }
    }

    @_spi(StorageEngine) public init(evaluating error: any Error) {
        if let error = error as? RecordStoreError {
            self = error
        } else if case .budgetExceeded(let limit)? = error as? FormatPredicateError {
            self = .queryTooExpensive(limit)
        } else if let error = error as? FormatPredicateError {
            self = .predicate(error)
        } else {
            self = .predicate(.evaluation(String(describing: error)))
        }
    }
}

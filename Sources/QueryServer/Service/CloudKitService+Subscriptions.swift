// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension CloudKitService {
    /// `subscriptions/modify`: creates, updates and deletes subscriptions: query subscriptions in
    /// the public and private databases, zone subscriptions in a private database, database
    /// subscriptions in a private or a shared database.
    ///
    /// Takes `operations`, each `{operationType: "create" | "update" | "delete", subscription}`.
    /// Answers `{"subscriptions": [...]}`, one entry per operation in order: the subscription as
    /// stored, `{subscriptionID, deleted: true}` for a deletion, or an error
    /// `{subscriptionID, serverErrorCode, reason}` (`NOT_FOUND` for an update or a deletion of a
    /// subscription that does not exist, `BAD_REQUEST` for one this server cannot take).
    public func modifySubscriptions(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SubscriptionsModifyRequest.self, from: body)
        let storage = SubscriptionStorage(namespace: namespace, service: self)
        var answers: [JSONValue] = []
        for (index, entry) in request.operations.enumerated() {
            let identifier = entry["subscription"]?["subscriptionID"]?.stringValue ?? ""
            do {
                answers.append(try await apply(try request.operation(index), storage: storage, namespace: namespace))
            } catch {
                answers.append(.object([
                    "subscriptionID": .string(identifier), "serverErrorCode": .string(error.code.rawValue), "reason": .string(error.reason),
                ]))
            }
        }
        // Subscriptions start firing at once in this process (others hear the change as it commits).
        _ = try await notificationHub(for: namespace)
        return .object(["subscriptions": .array(answers)])
    }

    private func apply(_ operation: SubscriptionsModifyRequest.Operation, storage: SubscriptionStorage, namespace: Namespace) async throws(ServerError) -> JSONValue {
        switch operation.operationType {
        case .create, .update:
            let subscription = try await Subscription(operation.subscription, path: operation.subscriptionPath, namespace: namespace, service: self)
            if operation.operationType == .update, try await storage.subscription(subscription.subscriptionID) == nil {
                throw ServerError(.notFound, "no subscription '\(subscription.subscriptionID.prefix(80))' to update")
            }
            // This process's hub hears the subscription's zones before it is saved: a write the
            // client makes once it is answered is then heard, whoever else observes.
            let hub = try await notificationHub(for: namespace)
            await hub.prepareToWatch(subscription)
            do {
                try await storage.save(subscription)
            } catch {
                hub.forgetPrepared(subscription.subscriptionID)
                throw error
            }
            return subscription.json
        case .delete:
            let identifier = try RequestBodyDecoder.decode(SubscriptionsLookupRequest.Entry.self, from: operation.subscription, at: operation.subscriptionPath).subscriptionID
            guard !identifier.isEmpty else { throw ServerError(.badRequest, "\(operation.subscriptionPath).subscriptionID is empty") }
            guard try await storage.delete(identifier) else { throw ServerError(.notFound, "no subscription '\(identifier.prefix(80))' to delete") }
            return .object(["subscriptionID": .string(identifier), "deleted": .bool(true)])
        }
    }

    /// `subscriptions/list`: every subscription of the namespace, by ID.
    public func listSubscriptions(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let subscriptions = try await SubscriptionStorage(namespace: namespace, service: self).all()
        return .object(["subscriptions": .array(subscriptions.map(\.json))])
    }

    /// `subscriptions/lookup`: the subscriptions of `subscriptions: [{subscriptionID}]`, in order;
    /// a missing one is an error entry (`NOT_FOUND`).
    public func lookupSubscriptions(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SubscriptionsLookupRequest.self, from: body)
        let storage = SubscriptionStorage(namespace: namespace, service: self)
        var answers: [JSONValue] = []
        for identifier in request.subscriptionIDs {
            if let subscription = try await storage.subscription(identifier) {
                answers.append(subscription.json)
            } else {
                answers.append(.object([
                    "subscriptionID": .string(identifier), "serverErrorCode": .string(ServerErrorCode.notFound.rawValue),
                    "reason": .string("no subscription '\(identifier.prefix(80))'"),
                ]))
            }
        }
        return .object(["subscriptions": .array(answers)])
    }

    /// The notifications of a namespace's subscriptions (this server's extension, served as
    /// Server-Sent Events): those retained after `lastEventID`, then each as it fires. A
    /// `principal` held to security roles hears only of records it may read, by the grants as
    /// they stood when it connected (a record whose `READ` goes to `_creator` alone: only its
    /// creator hears of it, and of its deletion nobody held does, its creator being gone with it).
    func notifications(
        in namespace: Namespace, after lastEventID: String?, principal: RequestPrincipal? = nil
    ) async throws(ServerError) -> AsyncStream<NotificationHub.Event> {
        let events = try await notificationHub(for: namespace).events(after: lastEventID)
        let store = try await self.store(for: namespace)
        guard let check = try await securityCheck(for: principal ?? .owner(of: namespace.database), in: store) else { return events }
        return AsyncStream { continuation in
            let task = Task {
                for await event in events {
                    if case .notification(let notification) = event,
                       !check.policy.allows(.read, on: notification.recordType, createdBy: notification.creatorUserRecordName, for: check.principal) {
                        continue
                    }
                    continuation.yield(event)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Starts the notification hub of every namespace whose subscriptions zone exists (each
    /// namespace keeps its subscriptions in a zone `subscriptions/<prefix>` of its
    /// environment's store), opening the development environment's store. Then it follows each
    /// environment's commits for subscriptions saved in namespaces it has no hub for yet (by
    /// another process), and starts theirs.
    func startNotifications() async throws(ServerError) {
        for (environment, store) in try await bookkeepingStores() {
            try await followSubscriptions(in: environment, store: store)
        }
    }

    /// Starts the hubs of the namespaces with subscriptions in `store` (`environment`'s), then
    /// follows its commits for new ones (``startNotifications()``).
    func followSubscriptions(in environment: Namespace.Environment, store: Store) async throws(ServerError) {
        // Writers of other zones need not notify for it (``ObservedZones``).
        let inbox = ObservationInbox(zones: { ObservedZones(prefixes: ["subscriptions/"]) }) { changes in
            changes.entries.contains { $0.recordType == SubscriptionStorage.recordType && $0.recordID.zoneID.zoneName.hasPrefix("subscriptions/") }
        }
        let feed = store.engine.changeFeed
        await feed.subscribe(inbox)
        let zones = try await run { () async throws(RecordStoreError) in try await store.zones() }
        for zone in zones {
            guard let namespace = Namespace(subscriptionsZone: zone), namespace.environment == environment else { continue }
            _ = try await notificationHub(for: namespace)
        }
        let task = Task { [weak self] in
            while let delivery = await inbox.take() {
                guard let self else { return }
                let zones = Set(delivery.commits.flatMap(\.entries).filter { $0.recordType == SubscriptionStorage.recordType }.map(\.recordID.zoneID))
                for zone in zones {
                    guard let namespace = Namespace(subscriptionsZone: zone), namespace.environment == environment else { continue }
                    _ = try? await self.notificationHub(for: namespace)
                }
            }
        }
        subscriptionFollower.withLock { $0.append(SubscriptionFollower(environment: environment, inbox: inbox, feed: feed, task: task)) }
    }

    /// Stops the hubs and the follower of `environment`'s store (its store was replaced: the
    /// development environment was reset), and, when the service was following, follows the
    /// store it has now. The follower stops first, so that a commit it heard from the old store
    /// cannot start a hub once the hubs are forgotten.
    func restartNotifications(in environment: Namespace.Environment) async throws(ServerError) {
        let stopped = subscriptionFollower.withLock { followers in
            let stopped = followers.filter { $0.environment == environment }
            followers.removeAll { $0.environment == environment }
            return stopped
        }
        for follower in stopped {
            follower.task.cancel()
            follower.feed.unsubscribe(follower.inbox)
        }
        await notificationHubs.forget(environment: environment)
        guard !stopped.isEmpty else { return }
        try await followSubscriptions(in: environment, store: try await bookkeepingStore(for: environment))
    }

    /// The namespace's hub, started on first use.
    func notificationHub(for namespace: Namespace) async throws(ServerError) -> NotificationHub {
        try await notificationHubs.hub(for: namespace, service: self)
    }
}

/// What follows an environment's commits for new namespaces with subscriptions (see
/// ``CloudKitService/startNotifications()``): its inbox, the feed it hears, and the task reading it.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `NotificationHub`,
/// `ObservationInbox` and `ChangeFeed`.
struct SubscriptionFollower: Sendable {
    /// The environment whose store it follows.
    let environment: Namespace.Environment
    let inbox: ObservationInbox
    let feed: ChangeFeed
    let task: Task<Void, Never>
}

/// The notification hubs of a service, one a namespace, each started once.
actor NotificationHubs {
    private var hubs: [Namespace: Task<NotificationHub, any Error>] = [:]

    /// Whether a namespace's hub was asked for (started, or starting).
    func hasHub(for namespace: Namespace) -> Bool { hubs[namespace] != nil }

    /// Forgets the hubs of `environment`'s namespaces and stops them (``NotificationHub/stop()``):
    /// the next request starts them again, over the environment's store as it is then.
    func forget(environment: Namespace.Environment) async {
        let forgotten = hubs.filter { $0.key.environment == environment }.values
        hubs = hubs.filter { $0.key.environment != environment }
        for starting in forgotten {
            if let hub = try? await starting.value { hub.stop() }
        }
    }

    func hub(for namespace: Namespace, service: CloudKitService) async throws(ServerError) -> NotificationHub {
        let task: Task<NotificationHub, any Error>
        if let existing = hubs[namespace] {
            task = existing
        } else {
            task = Task {
                let hub = NotificationHub(namespace: namespace, service: service, store: try await service.bookkeepingStore(for: namespace.environment))
                try await hub.start()
                return hub
            }
            hubs[namespace] = task
        }
        do {
            return try await task.value
        } catch {
            hubs[namespace] = nil  // the next request tries again
            throw error as? ServerError ?? ServerError(.internalError, "the notifications could not start: \(error)")
        }
    }
}
#endif

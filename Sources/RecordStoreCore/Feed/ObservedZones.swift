/// The zones whose commits a ``ChangeSubscriber`` needs to hear: zones by name, zones whose
/// names start with a prefix, or every zone.
///
/// A ``ChangeFeed`` hands the union of its subscribers' zones to its ``ChangeSource``
/// (``ChangeSource/listen(for:)``). A source that has to ask writers to send their commits
/// (PostgreSQL's `NOTIFY`, which makes notifying writers commit one at a time) asks only the
/// writers of these zones: a store whose observers watch one zone does not slow the writers of
/// the others.
///
/// ```swift
/// let zones = ObservedZones(names: ["Cities"]).union(ObservedZones(prefixes: ["subscriptions/"]))
/// zones.contains(ZoneID(zoneName: "subscriptions/_public"))   // true
/// zones.contains(ZoneID(zoneName: "Airports"))                // false
/// ```
@_spi(StorageEngine) public struct ObservedZones: Sendable, Hashable, CustomStringConvertible {
    /// Zones by name (``ZoneID/zoneName``).
    @_spi(StorageEngine) public var names: Set<String>
    /// Zones whose names start with one of these.
    @_spi(StorageEngine) public var prefixes: Set<String>
    /// Whether every zone is observed (then ``names`` and ``prefixes`` are empty).
    @_spi(StorageEngine) public private(set) var everyZone: Bool

    /// No zone.
    @_spi(StorageEngine) public static let none = ObservedZones()
    /// Every zone.
    @_spi(StorageEngine) public static let every: ObservedZones = {
        var zones = ObservedZones()
        zones.everyZone = true
        return zones
    }()

    /// Zones by name and by prefix.
    @_spi(StorageEngine) public init(names: Set<String> = [], prefixes: Set<String> = []) {
        self.names = names
        self.prefixes = prefixes
        everyZone = false
    }

    /// One zone.
    @_spi(StorageEngine) public init(_ zone: ZoneID) {
        self.init(names: [zone.zoneName])
    }

    /// Whether a zone is observed.
    @_spi(StorageEngine) public func contains(_ zone: ZoneID) -> Bool {
        everyZone || names.contains(zone.zoneName) || prefixes.contains { zone.zoneName.hasPrefix($0) }
    }

    /// Whether every zone `other` observes is observed here.
    @_spi(StorageEngine) public func covers(_ other: ObservedZones) -> Bool {
        if everyZone { return true }
        if other.everyZone { return false }
        return other.prefixes.allSatisfy { prefix in prefixes.contains { prefix.hasPrefix($0) } }
            && other.names.allSatisfy { contains(ZoneID(zoneName: $0)) }
    }

    /// The zones observed here or there.
    @_spi(StorageEngine) public func union(_ other: ObservedZones) -> ObservedZones {
        if everyZone || other.everyZone { return .every }
        return ObservedZones(names: names.union(other.names), prefixes: prefixes.union(other.prefixes))
    }

    /// The zones a commit changed, or nil when it changed some without naming them (a
    /// ``CommittedChanges/Scope/everything`` it could not list): the zones a source asks the
    /// commit's writer about.
    @_spi(StorageEngine) public static func changed(by changes: CommittedChanges) -> Set<String>? {
        var zones = Set(changes.entries.map(\.recordID.zoneID.zoneName))
        for scope in changes.unlisted {
            guard scope.isOneZone else { return nil }
            zones.insert(scope.zone.zoneName)
        }
        return zones
    }

    @_spi(StorageEngine) public var description: String {
        if everyZone { return "every zone" }
        let parts = names.sorted() + prefixes.sorted().map { $0 + "*" }
        return parts.isEmpty ? "no zone" : parts.joined(separator: ", ")
    }
}

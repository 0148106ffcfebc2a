/// What a share lets someone do with the records it shares, as CloudKit names it
/// (`CKShare.ParticipantPermission`, the `publicPermission` and `permission` of CloudKit Web
/// Services): nothing, read, or read and write. Ordered: `none < readOnly < readWrite`.
///
/// ```swift
/// SharePermission(rawValue: "READ_ONLY")   // .readOnly
/// SharePermission.readWrite > .readOnly     // true
/// ```
public enum SharePermission: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// `NONE`: no access (a share's public permission when only its participants may join).
    case none = "NONE"
    /// `READ_ONLY`: read the shared records.
    case readOnly = "READ_ONLY"
    /// `READ_WRITE`: read, change, create and delete records in the shared hierarchy.
    case readWrite = "READ_WRITE"

    /// The permission as CloudKit spells it: `NONE`, `READ_ONLY`, `READ_WRITE`.
    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .none: 0
        case .readOnly: 1
        case .readWrite: 2
        }
    }

    /// Whether `lhs` allows less than `rhs`: `NONE < READ_ONLY < READ_WRITE`.
    public static func < (lhs: SharePermission, rhs: SharePermission) -> Bool { lhs.rank < rhs.rank }

    /// Whether the permission lets its holder change records.
    ///
    /// ```swift
    /// SharePermission.readOnly.allowsWriting   // false
    /// ```
    public var allowsWriting: Bool { self == .readWrite }
}

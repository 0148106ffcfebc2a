// Part of the Server trait: without it, this module is empty.
#if Server
/// How records are written into an answer beyond their contents: the user named in `created`
/// and `modified` (``UserRecordName``), and the links of their
/// assets (nil: `ASSETID` values without a `downloadURL` or `receipt`, as the service answers when
/// called without HTTP).
///
/// ```swift
/// WireRecord.json(record, zoneName: "_defaultZone", desiredKeys: nil, numbersAsStrings: false,
///                 style: RecordAnswerStyle(owner: "_3f2a…", assetLinks: links))
/// ```
struct RecordAnswerStyle: Sendable {
    /// The `userRecordName` of `created` and `modified`.
    var owner: String = WireRecord.ownerName
    /// The links of `ASSETID` values.
    var assetLinks: AssetLinks?
    /// The namespace whose zone names references are written in (nil: as stored,
    /// ``Namespace/clientValue(_:)``).
    var namespace: Namespace?
    /// The `ownerRecordName` of the zones (`_defaultOwner`, but the owner's own in a shared
    /// database, whose zones belong to other users).
    var zoneOwner: String = WireRecord.ownerName
    /// The share of each record that is a share's root (its `share` member), by record.
    var rootShares: [RecordID: RecordID] = [:]

    /// The server's one owner, no asset links.
    static let plain = RecordAnswerStyle()
}
#endif

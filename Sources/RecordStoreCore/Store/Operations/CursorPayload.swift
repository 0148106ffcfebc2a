import Foundation
import PredicateLanguage

/// The signed content of a cursor, and its compact binary form: a version byte, the
/// store's identifier, the zone, the query's fingerprint, the query itself (type, predicate
/// with its constants apart, see ``PredicateConstants``, sorts) and the resume point (a keyset
/// position or an offset).
///
/// Version 2 carries the constants apart; a version 1 cursor (the predicate's print form
/// alone, which an integral double did not survive) is refused as malformed.
package struct CursorPayload: Sendable, Hashable {
    package static let version: UInt8 = 2

    package var storeIdentifier: [UInt8]
    package var zone: ZoneID
    package var query: RecordQuery
    package var resumePoint: ResumePoint

    /// Where the next page starts.
    package enum ResumePoint: Sendable, Hashable {
        /// After this position in the query's order.
        case keyset(KeysetPosition)
        /// After this many matches (CloudKit's behaviour).
        case offset(Int)
    }

    package init(storeIdentifier: [UInt8], zone: ZoneID, query: RecordQuery, resumePoint: ResumePoint) {
        self.storeIdentifier = storeIdentifier
        self.zone = zone
        self.query = query
        self.resumePoint = resumePoint
    }

    /// The binary form.
    package func encoded() -> [UInt8] {
        var writer = CursorByteWriter()
        writer.byte(Self.version)
        writer.bytes(storeIdentifier)
        writer.string(zone.zoneName)
        writer.bytes(query.fingerprint)
        writer.string(query.recordType)
        let (template, constants) = PredicateConstants.extract(from: query.predicate)
        writer.string(template.predicateFormat)
        writer.integer(Int64(constants.count))
        for constant in constants { writer.value(constant) }
        writer.integer(Int64(query.sorts.count))
        for sort in query.sorts {
            writer.string(sort.key)
            writer.byte(sort.ascending ? 1 : 0)
            writer.string(sort.comparison.rawValue)
            if let origin = sort.distanceOrigin {
                writer.byte(origin.altitude == nil ? 1 : 2)
                writer.double(origin.latitude)
                writer.double(origin.longitude)
                if let altitude = origin.altitude { writer.double(altitude) }
            } else {
                writer.byte(0)
            }
        }
        switch resumePoint {
        case .keyset(let position):
            writer.byte(0)
            writer.integer(Int64(position.sortValues.count))
            for value in position.sortValues { writer.value(value) }
            writer.string(position.recordName)
        case .offset(let offset):
            writer.byte(1)
            writer.integer(Int64(offset))
        }
        return writer.output
    }

    /// Decodes the binary form; nil when it is not a well-formed payload.
    package init?(decoding bytes: [UInt8]) {
        var reader = CursorByteReader(bytes)
        guard reader.byte() == Self.version,
              let storeIdentifier = reader.bytes(16),
              let zoneName = reader.string(), !zoneName.isEmpty,
              let fingerprint = reader.bytes(16),
              let recordType = reader.string(),
              let predicateText = reader.string(),
              let constantCount = reader.integer(), constantCount >= 0, constantCount <= Int64(bytes.count) else { return nil }
        var constants: [Value] = []
        for _ in 0..<constantCount {
            guard let constant = reader.value() else { return nil }
            constants.append(constant)
        }
        guard let sortCount = reader.integer(), sortCount >= 0, sortCount < 1000 else { return nil }
        var sorts: [Sort] = []
        for _ in 0..<sortCount {
            guard let key = reader.string(), let ascending = reader.byte(),
                  let comparisonName = reader.string(), let comparison = SortComparison(rawValue: comparisonName),
                  let hasOrigin = reader.byte() else { return nil }
            var sort = Sort(key, ascending: ascending == 1, comparison: comparison)
            if hasOrigin == 1 || hasOrigin == 2 {
                guard let latitude = reader.double(), let longitude = reader.double() else { return nil }
                var altitude: Double?
                if hasOrigin == 2 {
                    guard let value = reader.double() else { return nil }
                    altitude = value
                }
                sort.distanceOrigin = Location(latitude: latitude, longitude: longitude, altitude: altitude)
            }
            sorts.append(sort)
        }
        guard let mode = reader.byte() else { return nil }
        let resumePoint: ResumePoint
        switch mode {
        case 0:
            guard let count = reader.integer(), count == Int64(sorts.count) else { return nil }
            var values: [Value] = []
            for _ in 0..<count {
                guard let value = reader.value() else { return nil }
                values.append(value)
            }
            guard let recordName = reader.string() else { return nil }
            resumePoint = .keyset(KeysetPosition(sortValues: values, recordName: recordName))
        case 1:
            guard let offset = reader.integer(), offset >= 0, offset <= Int64(Int.max) else { return nil }
            resumePoint = .offset(Int(offset))
        default:
            return nil
        }
        guard reader.isAtEnd, Identifier.isValid(recordType),
              let template = try? FormatPredicate(format: predicateText, argumentArray: []) else { return nil }
        let predicate = PredicateConstants.restore(template, values: constants)
        let query = RecordQuery(checkedRecordType: recordType, predicate: predicate, sorts: sorts)
        guard query.fingerprint == fingerprint else { return nil }
        self.storeIdentifier = storeIdentifier
        self.zone = ZoneID(zoneName: zoneName)
        self.query = query
        self.resumePoint = resumePoint
    }
}

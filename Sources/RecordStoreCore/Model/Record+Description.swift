import PredicateLanguage

extension Record: CustomStringConvertible, CustomDebugStringConvertible {
    /// The record as a user reads it: its name, type and zone, then its fields by name.
    ///
    /// ```swift
    /// print(paris)   // 2988507 (City, _defaultZone) ["countrycode": "FR", "name": "Paris", "population": 2138551]
    /// ```
    public var description: String {
        "\(recordID.recordName) (\(recordType), \(recordID.zoneID.zoneName)) \(Value.object(fields))"
    }

    /// The ``description`` with the fields' values in their debug form (dates and references
    /// named), and the change tag when the record was saved.
    ///
    /// ```swift
    /// debugPrint(paris)   // 2988507 (City, _defaultZone, tag 3) ["name": "Paris", ...]
    /// ```
    public var debugDescription: String {
        let tag = recordChangeTag.map { ", tag \($0)" } ?? ""
        return "\(recordID.recordName) (\(recordType), \(recordID.zoneID.zoneName)\(tag)) \(Value.object(fields).debugDescription)"
    }
}

import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// A latitude/longitude box holding every point within a radius of a center, with a
/// margin: the candidates for a radius search, checked exactly afterwards.
@_spi(StorageEngine) public struct BoundingBox: Sendable, Hashable {
    @_spi(StorageEngine) public var minimumLatitude: Double
    @_spi(StorageEngine) public var maximumLatitude: Double
    /// One range, or two when the box crosses the 180th meridian.
    @_spi(StorageEngine) public var longitudeRanges: [ClosedRange<Double>]

    /// The box around a circle of `radius` meters.
    @_spi(StorageEngine) public init(around center: Location, radius: Double) {
        // A little more than the radius, and a little more than the R*Tree's float precision.
        let margin = 1e-4
        let angular = radius * 1.001 / Location.earthRadius
        let degrees = angular * 180 / .pi
        minimumLatitude = max(-90, center.latitude - degrees - margin)
        maximumLatitude = min(90, center.latitude + degrees + margin)
        let latitudeRadians = center.latitude * .pi / 180
        let ratio = sin(angular) / cos(latitudeRadians)
        guard minimumLatitude > -90, maximumLatitude < 90, angular < .pi / 2, ratio.isFinite, ratio < 1 else {
            longitudeRanges = [-180...180]
            return
        }
        let longitudeDegrees = asin(ratio) * 180 / .pi + margin
        let low = center.longitude - longitudeDegrees
        let high = center.longitude + longitudeDegrees
        if low < -180 {
            longitudeRanges = [(low + 360)...180, -180...high]
        } else if high > 180 {
            longitudeRanges = [low...180, -180...(high - 360)]
        } else {
            longitudeRanges = [low...high]
        }
    }
}

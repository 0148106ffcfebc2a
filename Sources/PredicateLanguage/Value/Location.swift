import Foundation

/// A geographic location: the counterpart of `CLLocation` in a predicate.
///
/// ```swift
/// let cupertino = Location(latitude: 37.331913, longitude: -122.030210)
/// let predicate = try FormatPredicate(
///     format: "distanceToLocation:fromLocation:(location, %@) < %f", cupertino, 10_000.0)
/// ```
public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// Degrees north of the equator, from -90 to 90.
    public var latitude: Double
    /// Degrees east of Greenwich, from -180 to 180.
    public var longitude: Double
    /// Meters above sea level, when known.
    public var altitude: Double?

    /// Creates a location from degrees of latitude and longitude.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// The mean Earth radius, in meters, used for great-circle distances (IUGG).
    public static let earthRadius: Double = 6_371_008.8

    /// The great-circle (haversine) distance to another location, in meters.
    ///
    /// ```swift
    /// paris.distance(to: london)   // about 343,900 meters
    /// ```
    @inlinable
    public func distance(to other: Location) -> Double {
        let toRadians = Double.pi / 180
        let lat1 = latitude * toRadians
        let lat2 = other.latitude * toRadians
        let deltaLatitude = (other.latitude - latitude) * toRadians
        let deltaLongitude = (other.longitude - longitude) * toRadians
        let sinLat = sin(deltaLatitude / 2)
        let sinLon = sin(deltaLongitude / 2)
        let a = sinLat * sinLat + cos(lat1) * cos(lat2) * sinLon * sinLon
        return 2 * Location.earthRadius * asin(min(1, a.squareRoot()))
    }

    /// Whether latitude and longitude are finite and within their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    public var description: String {
        "<\(latitude), \(longitude)>"
    }
}

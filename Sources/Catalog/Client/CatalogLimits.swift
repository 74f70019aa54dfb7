import Foundation

/// How hard Reel may lean on TMDb. Defaults stay well under TMDb's published ceiling of about 40
/// requests a second and 20 connections per address.
public struct CatalogLimits: Sendable, Equatable {
    public var requestsPerSecond: Double = 30
    public var maxConnections: Int = 8
    public var retry = RetryPolicy()
    public var timeout: Duration = .seconds(20)

    public init() {}

    /// Defaults overridden by `REEL_TMDB_RATE` (requests per second) and
    /// `REEL_TMDB_CONNECTIONS`; values that are not positive numbers are ignored.
    public static func from(environment: [String: String]) -> CatalogLimits {
        var limits = CatalogLimits()
        if let rate = environment["REEL_TMDB_RATE"].flatMap(Double.init), rate > 0 { limits.requestsPerSecond = rate }
        if let connections = environment["REEL_TMDB_CONNECTIONS"].flatMap(Int.init), connections > 0 {
            limits.maxConnections = min(connections, 64)
        }
        return limits
    }
}

/// How hard Reel leans on OMDb: requests a day (a free key's 1,000) and connections at once.
public struct OMDbLimits: Sendable, Equatable {
    public var daily = 1_000
    public var maxConnections = 4
    public var retry = RetryPolicy(maximumRetries: 2)
    public var timeout: Duration = .seconds(20)
    /// How long an answer is fresh: a week (ratings and awards change slowly).
    public var lifetime: Int64 = 7 * 24 * 3600

    public init() {}

    /// A value of `REEL_OMDB_DAILY` / `REEL_OMDB_CONNECTIONS` that is no whole number of the
    /// right size; `nil` when both are fine or unset.
    public static func problem(in environment: [String: String]) -> String? {
        if let text = environment["REEL_OMDB_DAILY"], !text.isEmpty, Int(text).map({ $0 >= 0 }) != true {
            return "REEL_OMDB_DAILY '\(text)' is not a number of requests a day (such as 1000)"
        }
        if let text = environment["REEL_OMDB_CONNECTIONS"], !text.isEmpty, Int(text).map({ (1...64).contains($0) }) != true {
            return "REEL_OMDB_CONNECTIONS '\(text)' is not a number of connections from 1 to 64"
        }
        return nil
    }

    /// Defaults overridden by `REEL_OMDB_DAILY` and `REEL_OMDB_CONNECTIONS` (see `problem(in:)`).
    public static func from(environment: [String: String]) -> OMDbLimits {
        var limits = OMDbLimits()
        if let daily = environment["REEL_OMDB_DAILY"].flatMap(Int.init), daily >= 0 { limits.daily = daily }
        if let connections = environment["REEL_OMDB_CONNECTIONS"].flatMap(Int.init), (1...64).contains(connections) {
            limits.maxConnections = connections
        }
        return limits
    }
}

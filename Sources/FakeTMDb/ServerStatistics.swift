public import JSONKit
import Ledger

/// What the fake server counted: requests to the API (control requests excluded), by path and
/// status, when each arrived, and how many connections and requests were open at once; OMDb's
/// requests apart (`omdb…`, under `"omdb"` in `/__stats`).
public struct ServerStatistics: Sendable, Equatable {
    public var requests = 0
    public var byPath: [String: Int] = [:]
    /// Requests that asked for a page, by path and page (`/discover/movie?page=2`): what a test
    /// of paging counts.
    public var byPage: [String: Int] = [:]
    public var byStatus: [Int: Int] = [:]
    public var notModified = 0
    public var unauthorized = 0
    /// Arrival times in nanoseconds since the server started.
    public var arrivals: [UInt64] = []
    public var connectionsAccepted = 0
    public var connectionsOpen = 0
    public var maxConnectionsOpen = 0
    public var inFlight = 0
    public var maxInFlight = 0
    /// Requests that carried credentials in a cache-visible place other than `api_key`
    /// (never expected).
    public var credentialLeaks = 0

    // OMDb's requests (`/omdb/`), counted apart from TMDb's: none of them is in the figures above.
    /// Every request to OMDb's API, refused ones included.
    public var omdbRequests = 0
    /// OMDb's requests by the IMDb id asked for (`i`), refused ones included.
    public var omdbByIMDbID: [String: Int] = [:]
    public var omdbByStatus: [Int: Int] = [:]
    /// Refused for their key: none (401 "No API key provided.") or not the accepted one (401 "Invalid API key!").
    public var omdbUnauthorized = 0
    /// Refused because the daily limit (`Options.omdbDaily`) was spent (401 "Request limit reached!").
    public var omdbLimited = 0
    /// Arrival times of OMDb's requests in nanoseconds since the server started.
    public var omdbArrivals: [UInt64] = []
    public var omdbInFlight = 0
    public var omdbMaxInFlight = 0

    /// The largest number of requests that arrived within any window of `seconds`.
    public func maxArrivals(within seconds: Double) -> Int { Self.maxArrivals(arrivals, within: seconds) }

    /// The largest number of OMDb requests that arrived within any window of `seconds`.
    public func maxOMDbArrivals(within seconds: Double) -> Int { Self.maxArrivals(omdbArrivals, within: seconds) }

    private static func maxArrivals(_ arrivals: [UInt64], within seconds: Double) -> Int {
        let window = UInt64(seconds * 1e9)
        var best = 0
        var start = 0
        for end in arrivals.indices {
            while arrivals[end] - arrivals[start] >= window { start += 1 }
            best = max(best, end - start + 1)
        }
        return best
    }

    /// Requests per second from the first arrival to the last.
    public var meanRate: Double { Self.meanRate(arrivals) }

    /// OMDb requests per second from the first arrival to the last.
    public var omdbMeanRate: Double { Self.meanRate(omdbArrivals) }

    private static func meanRate(_ arrivals: [UInt64]) -> Double {
        guard arrivals.count > 1, let first = arrivals.first, let last = arrivals.last, last > first else { return 0 }
        return Double(arrivals.count - 1) / (Double(last - first) / 1e9)
    }

    private static func counts(_ byStatus: [Int: Int]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: byStatus.map { (String($0.key), JSONValue.integer(Int64($0.value))) }))
    }

    public var json: JSONValue {
        [
            "requests": .integer(Int64(requests)),
            "byPath": .object(byPath.mapValues { .integer(Int64($0)) }),
            "byPage": .object(byPage.mapValues { .integer(Int64($0)) }),
            "byStatus": Self.counts(byStatus),
            "notModified": .integer(Int64(notModified)),
            "unauthorized": .integer(Int64(unauthorized)),
            "connectionsAccepted": .integer(Int64(connectionsAccepted)),
            "maxConnectionsOpen": .integer(Int64(maxConnectionsOpen)),
            "maxInFlight": .integer(Int64(maxInFlight)),
            "maxRequestsInAnySecond": .integer(Int64(maxArrivals(within: 1))),
            "meanRate": .double((meanRate * 100).rounded() / 100),
            "credentialLeaks": .integer(Int64(credentialLeaks)),
            "omdb": [
                "requests": .integer(Int64(omdbRequests)),
                "byIMDbID": .object(omdbByIMDbID.mapValues { .integer(Int64($0)) }),
                "byStatus": Self.counts(omdbByStatus),
                "unauthorized": .integer(Int64(omdbUnauthorized)),
                "limited": .integer(Int64(omdbLimited)),
                "maxInFlight": .integer(Int64(omdbMaxInFlight)),
                "maxRequestsInAnySecond": .integer(Int64(maxOMDbArrivals(within: 1))),
                "meanRate": .double((omdbMeanRate * 100).rounded() / 100),
            ],
        ]
    }
}

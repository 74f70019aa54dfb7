public import Foundation

/// When and how long to wait before trying a request again: on 429, 5xx and transient network
/// failures, with exponential backoff and jitter, or exactly what `Retry-After` says when the
/// server says it (up to `maximumRetryAfter`; longer than that is not waited for).
public struct RetryPolicy: Sendable, Equatable {
    public var maximumRetries: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration
    public var maximumRetryAfter: Duration

    public init(maximumRetries: Int = 4, baseDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(8), maximumRetryAfter: Duration = .seconds(60)) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 500 || status == 502 || status == 503 || status == 504
    }

    /// The backoff before retry number `attempt` (1-based): half of `base × 2^(attempt-1)`
    /// (capped at `maximumDelay`) plus a random part of up to the other half.
    public func backoff(attempt: Int, random: Double = Double.random(in: 0..<1)) -> Duration {
        let exponent = attempt <= 1 ? 0 : min(attempt - 1, 30)
        let ceiling = min(seconds(baseDelay) * pow(2, Double(exponent)), seconds(maximumDelay))
        return .nanoseconds(Int64((ceiling / 2 + ceiling / 2 * random) * 1e9))
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Parses `Retry-After`: delay-seconds (`"120"`) or an HTTP-date
    /// (`"Wed, 21 Oct 2015 07:28:00 GMT"`), relative to `now`. A date in the past means now.
    public static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                let delta = date.timeIntervalSince(now)
                return delta <= 0 ? .zero : .milliseconds(Int64((delta * 1000).rounded(.up)))
            }
        }
        return nil
    }
}

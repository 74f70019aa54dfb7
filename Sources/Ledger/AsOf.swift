/// A point in an account's past for time travel (`--as-of`): a log position, a stream version or a
/// moment. A view as of a point is the replay of the events up to and including it.
public enum AsOf: Sendable, Hashable, CustomStringConvertible {
    case position(UInt64)
    case streamVersion(UInt64)
    /// Microseconds since 1970-01-01T00:00:00Z.
    case time(Int64)

    public func admits(position: UInt64, streamVersion: UInt64, recordedAt: Int64) -> Bool {
        switch self {
        case .position(let p): position <= p
        case .streamVersion(let v): streamVersion <= v
        case .time(let t): recordedAt <= t
        }
    }

    public var description: String {
        switch self {
        case .position(let p): "position \(p)"
        case .streamVersion(let v): "stream version \(v)"
        case .time(let t): UTCTime.iso(t)
        }
    }
}

/// What the caller believes about a stream before appending: the optimistic concurrency check.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// Append whatever the stream holds.
    case any
    /// The stream must not have any event yet.
    case noStream
    /// The stream must be at exactly this version (its number of events); `.exact(0)` is `.noStream`.
    case exact(UInt64)

    public func admits(_ actual: UInt64) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .exact(let v): actual == v
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exact(let v): "version \(v)"
        }
    }
}

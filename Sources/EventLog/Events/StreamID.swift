/// The name of a stream: one account's sequence of events.
///
/// 1–255 bytes of UTF-8 without NUL (the stream index joins the id and the version with a NUL).
public struct StreamID: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init(_ rawValue: String) throws(EventLogError) {
        let count = rawValue.utf8.count
        guard (1...255).contains(count), !rawValue.utf8.contains(0) else {
            throw .invalidStreamID(rawValue)
        }
        self.rawValue = rawValue
    }

    /// For ids that come from the ledger itself, already valid.
    package init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (a: StreamID, b: StreamID) -> Bool { a.rawValue < b.rawValue }
}

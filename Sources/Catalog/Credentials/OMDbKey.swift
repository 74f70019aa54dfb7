/// An OMDb API key (sent as the `apikey` query parameter, by `HTTPOMDbTransport` alone). Its
/// description never shows it.
public struct OMDbKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret, for the one place that sends it and the one that derives the budget's slot.
    let secret: String

    /// A key as given, already judged by `Credentials.given` (one word of printable ASCII).
    public init(_ secret: String) { self.secret = secret }

    public var description: String { "OMDb API key (hidden)" }
    public var debugDescription: String { description }
}

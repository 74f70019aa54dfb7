/// What kind of TMDb title a favorite is.
public enum MediaType: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case movie
    case tv

    public static func < (a: MediaType, b: MediaType) -> Bool { a.rawValue < b.rawValue }

    /// The word for one in a sentence: "movie" or "series" (TMDb's `tv`).
    public var noun: String { self == .movie ? "movie" : "series" }
}

/// What kind of TMDb title a favorite is.
public enum MediaType: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case movie
    case tv

    public static func < (a: MediaType, b: MediaType) -> Bool { a.rawValue < b.rawValue }
}

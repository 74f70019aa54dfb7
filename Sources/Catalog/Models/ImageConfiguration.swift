/// The `images` part of `/configuration`, and the one place image URLs are built:
/// secure base URL + size + path, and only for a path TMDb actually gave.
public struct ImageConfiguration: Decodable, Sendable, Hashable {
    public let baseURL: String
    public let secureBaseURL: String
    public let backdropSizes: [String]
    public let logoSizes: [String]
    public let posterSizes: [String]
    public let profileSizes: [String]
    public let stillSizes: [String]

    public enum Kind: String, Sendable { case poster, backdrop, logo, profile, still }

    public init(
        baseURL: String, secureBaseURL: String, backdropSizes: [String], logoSizes: [String], posterSizes: [String],
        profileSizes: [String], stillSizes: [String]
    ) {
        self.baseURL = baseURL
        self.secureBaseURL = secureBaseURL
        self.backdropSizes = backdropSizes
        self.logoSizes = logoSizes
        self.posterSizes = posterSizes
        self.profileSizes = profileSizes
        self.stillSizes = stillSizes
    }

    /// What TMDb's `/configuration` has said for years: stands in offline when no configuration
    /// was ever cached (only cached images are drawn then).
    public static let tmdbDefault = ImageConfiguration(
        baseURL: "http://image.tmdb.org/t/p/", secureBaseURL: "https://image.tmdb.org/t/p/",
        backdropSizes: ["w300", "w780", "w1280", "original"], logoSizes: ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
        posterSizes: ["w92", "w154", "w185", "w342", "w500", "w780", "original"], profileSizes: ["w45", "w185", "h632", "original"],
        stillSizes: ["w92", "w185", "w300", "original"])

    enum CodingKeys: String, CodingKey {
        case baseURL = "base_url", secureBaseURL = "secure_base_url"
        case backdropSizes = "backdrop_sizes", logoSizes = "logo_sizes", posterSizes = "poster_sizes"
        case profileSizes = "profile_sizes", stillSizes = "still_sizes"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try c.text(.baseURL) ?? ""
        secureBaseURL = try c.text(.secureBaseURL) ?? ""
        backdropSizes = try c.list(.backdropSizes)
        logoSizes = try c.list(.logoSizes)
        posterSizes = try c.list(.posterSizes)
        profileSizes = try c.list(.profileSizes)
        stillSizes = try c.list(.stillSizes)
    }

    public func sizes(for kind: Kind) -> [String] {
        switch kind {
        case .poster: posterSizes
        case .backdrop: backdropSizes
        case .logo: logoSizes
        case .profile: profileSizes
        case .still: stillSizes
        }
    }

    /// The URL of an image at `size` (e.g. `w500`); a size the configuration does not list falls
    /// back to `original`. Nil when there is no path (TMDb sends null), and for an SVG logo only
    /// `original` exists.
    public func url(_ path: String?, kind: Kind, size: String) -> String? {
        guard let path, !path.isEmpty else { return nil }
        let base = secureBaseURL.isEmpty ? baseURL : secureBaseURL
        guard !base.isEmpty else { return nil }
        let listed = sizes(for: kind)
        var chosen = listed.contains(size) ? size : "original"
        if path.lowercased().hasSuffix(".svg") { chosen = "original" }
        let slash = base.hasSuffix("/") ? "" : "/"
        let lead = path.hasPrefix("/") ? "" : "/"
        return base + slash + chosen + lead + path
    }
}

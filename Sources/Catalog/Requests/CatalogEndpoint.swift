/// What a request asks TMDb for, which decides how long an answer stays fresh when TMDb's own
/// `Cache-Control` says nothing.
public enum CatalogEndpoint: String, Sendable, Hashable, CaseIterable {
    case configuration, genres, discover, search, find, details, similar, videos, credits, person, list, authentication

    /// The default lifetime of a cached answer, in seconds: details a day, genres and
    /// configuration a week, lists and searches an hour. Key checks are never cached.
    public var defaultLifetime: Int64 {
        switch self {
        case .configuration, .genres: 7 * 24 * 3600
        case .details, .similar, .videos, .credits, .person, .find: 24 * 3600
        case .discover, .search, .list: 3600
        case .authentication: 0
        }
    }
}

/// Where titles come from, as the status line names it.
public enum CatalogKind: Sendable, Equatable {
    /// Not known yet (the first answer tells).
    case unknown
    case tmdb
    /// The bundled sample catalog: no TMDb credentials.
    case sample
    /// TMDb's answers from the cache only (`--offline`).
    case offline

    public var name: String {
        switch self {
        case .unknown: "…"
        case .tmdb: "TMDb"
        case .sample: "sample catalog"
        case .offline: "offline"
        }
    }
}

extension MediaType {
    /// The kind as a person or an app names it, in any case: TMDb's words (`movie`, `tv`) and
    /// Reel's commands' (`movies`, `series`). Every face reads a typed kind through this, so the
    /// command line and the service take the same words.
    public init?(typed text: String) {
        switch text.lowercased() {
        case "movie", "movies": self = .movie
        case "tv", "series": self = .tv
        default: return nil
        }
    }

    /// The words `init(typed:)` takes, as a refusal lists them.
    public static let typedNames = ["movie", "tv", "series"]
}

// The core's choices as ArgumentParser argument types. A conformance of a public type is public,
// so these two imports are public; in an executable nothing is exported from them.
public import ArgumentParser
public import Reel

extension MediaType: ExpressibleByArgument {
    /// TMDb's names (`movie`, `tv`) and the commands' (`movies`, `series`), in any case.
    public init?(argument: String) { self.init(typed: argument) }

    public static var allValueStrings: [String] { ["movie", "series", "tv"] }
}

extension TitleListQuery.Order: ExpressibleByArgument {}

extension SavedListQuery.Order: ExpressibleByArgument {}

extension SearchQuery.Kind: ExpressibleByArgument {
    /// TMDb's names and the commands' (`movies`, `series`, `people`, `all`), in any case.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "movie", "movies": self = .movie
        case "tv", "series": self = .tv
        case "person", "people": self = .person
        case "multi", "all": self = .multi
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["movie", "series", "tv", "person", "multi"] }
}

extension InterchangeFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
}

extension ExportFormat: ExpressibleByArgument {}

// The core's choices as ArgumentParser argument types. A conformance of a public type is public,
// so these two imports are public; in an executable nothing is exported from them.
public import ArgumentParser
public import Reel

extension MediaType: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension TitleListQuery.Order: ExpressibleByArgument {}

extension SavedListQuery.Order: ExpressibleByArgument {}

extension SearchQuery.Kind: ExpressibleByArgument {}

extension InterchangeFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
}

extension ExportFormat: ExpressibleByArgument {}

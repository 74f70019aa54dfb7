import Catalog
import Ledger

/// TMDb's genres of each media type asked for, named in the account's language.
public struct GenresReport: Sendable {
    public let language: String
    public let lists: [(mediaType: MediaType, genres: [Genre])]
}

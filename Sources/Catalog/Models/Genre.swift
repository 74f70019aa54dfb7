/// A genre: movie and series genres are separate id spaces (28 Action is movie-only, 10759 Action
/// & Adventure is series-only); names come back in the requested language.
public struct Genre: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

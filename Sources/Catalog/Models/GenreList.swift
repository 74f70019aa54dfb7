/// `GET /genre/movie/list` and `/genre/tv/list`.
public struct GenreList: Decodable, Sendable, Hashable {
    public let genres: [Genre]

    public init(genres: [Genre]) { self.genres = genres }

    public func name(of id: Int) -> String? { genres.first { $0.id == id }?.name }
}

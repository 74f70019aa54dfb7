/// One title as OMDb describes it (`GET /?i=tt…`), read leniently: every value is a string,
/// missing ones `"N/A"` (absent here), numbers with thousands separators and units. The scores
/// come from `imdbRating`/`imdbVotes`/`Metascore` and from `Ratings` (Internet Movie Database
/// `8.8/10`, Rotten Tomatoes `79%`, Metacritic `66/100`), whichever says it.
public struct OMDbTitle: Decodable, Sendable, Equatable {
    public let imdbID: String
    public let title: String?
    /// `1999`, or a series' `2011–2019` / `2021–`, as OMDb writes it.
    public let year: String?
    /// The certificate: `R`, `PG-13`, `TV-MA`.
    public let rated: String?
    public let runtime: String?
    public let genres: [String]
    public let directors: [String]
    public let writers: [String]
    public let actors: [String]
    public let awards: OMDbAwards?
    /// Dollars (`$37,030,102`).
    public let boxOffice: Int?
    /// `movie`, `series`, `episode`.
    public let type: String?
    public let totalSeasons: Int?
    public let imdbRating: Double?
    public let imdbVotes: Int?
    /// Rotten Tomatoes' Tomatometer, percent.
    public let tomatometer: Int?
    /// Metacritic's Metascore, out of 100.
    public let metascore: Int?

    enum CodingKeys: String, CodingKey {
        case imdbID, title = "Title", year = "Year", rated = "Rated", runtime = "Runtime", genre = "Genre", director = "Director"
        case writer = "Writer", actors = "Actors", awards = "Awards", boxOffice = "BoxOffice", type = "Type"
        case totalSeasons, imdbRating, imdbVotes, metascore = "Metascore", ratings = "Ratings", response = "Response"
    }

    struct Rating: Decodable {
        let source: String?
        let value: String?
        enum CodingKeys: String, CodingKey { case source = "Source", value = "Value" }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func raw(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        guard let id = OMDbValue.text(try raw(.imdbID)) else {
            throw DecodingError.keyNotFound(CodingKeys.imdbID, .init(codingPath: [], debugDescription: "no imdbID"))
        }
        imdbID = id
        title = OMDbValue.text(try raw(.title))
        year = OMDbValue.text(try raw(.year))
        rated = OMDbValue.text(try raw(.rated))
        runtime = OMDbValue.text(try raw(.runtime))
        genres = OMDbValue.list(try raw(.genre))
        directors = OMDbValue.list(try raw(.director))
        writers = OMDbValue.list(try raw(.writer))
        actors = OMDbValue.list(try raw(.actors))
        awards = OMDbValue.text(try raw(.awards)).map(OMDbAwards.init)
        boxOffice = OMDbValue.whole(try raw(.boxOffice))
        type = OMDbValue.text(try raw(.type))
        totalSeasons = OMDbValue.whole(try raw(.totalSeasons))
        imdbVotes = OMDbValue.whole(try raw(.imdbVotes))
        let ratings = (try? c.decodeIfPresent([Rating].self, forKey: .ratings)) ?? []
        func rating(_ source: String) -> String? { ratings.first { $0.source == source }?.value }
        imdbRating = OMDbValue.outOfTen(try raw(.imdbRating)) ?? OMDbValue.outOfTen(rating("Internet Movie Database"))
        tomatometer = OMDbValue.percent(rating("Rotten Tomatoes"))
        metascore = OMDbValue.outOfHundred(try raw(.metascore)) ?? OMDbValue.outOfHundred(rating("Metacritic"))
    }
}

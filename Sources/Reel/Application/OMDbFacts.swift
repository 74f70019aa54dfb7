import Catalog
import Failures

/// What OMDb adds to a title's details (the IMDb rating and votes, Rotten Tomatoes, Metacritic,
/// awards, box office, the certificate, director, writer and actors), with the lines every front
/// end shows them in. Texts are OMDb's as they came: a front end makes them safe to show.
public struct OMDbFacts: Sendable, Equatable {
    public var imdbID: String
    public var imdbRating: Double?
    public var imdbVotes: Int?
    public var tomatometer: Int?
    public var metascore: Int?
    public var awards: OMDbAwards?
    /// Dollars.
    public var boxOffice: Int?
    /// The certificate: `R`, `PG-13`, `TV-MA`.
    public var rated: String?
    public var directors: [String]
    public var writers: [String]
    public var actors: [String]
    public var totalSeasons: Int?
    /// Older than a week, shown because OMDb could not be asked.
    public var stale: Bool

    public init(_ title: OMDbTitle, stale: Bool) {
        imdbID = title.imdbID
        imdbRating = title.imdbRating
        imdbVotes = title.imdbVotes
        tomatometer = title.tomatometer
        metascore = title.metascore
        awards = title.awards
        boxOffice = title.boxOffice
        rated = title.rated
        directors = title.directors
        writers = title.writers
        actors = title.actors
        totalSeasons = title.totalSeasons
        self.stale = stale
    }

    /// `IMDb 8.8 (2.3M votes) · Rotten Tomatoes 79% · Metacritic 66`; nil without any score.
    public var ratingsLine: String? {
        var parts: [String] = []
        if let imdbRating {
            parts.append("IMDb " + Self.oneDecimal(imdbRating) + (imdbVotes.map { " (\(Self.compact($0)) votes)" } ?? ""))
        }
        if let tomatometer { parts.append("Rotten Tomatoes \(tomatometer)%") }
        if let metascore { parts.append("Metacritic \(metascore)") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The most trophies drawn in a row; more are written as `+N`.
    public static let maximumTrophies = 12

    /// `🏆🏆🏆 3 Oscars · 108 wins · 145 nominations` (a trophy per win of the top award, then
    /// the totals), `nominated for 1 Oscar · 11 wins · 38 nominations`, or OMDb's own words when
    /// they could not be read; nil without awards.
    public var awardsLine: String? {
        guard let awards else { return nil }
        var parts: [String] = []
        if let award = awards.topAward, let won = awards.topWins, won > 0 {
            let trophies = String(repeating: "🏆", count: min(won, Self.maximumTrophies)) + (won > Self.maximumTrophies ? "+\(won - Self.maximumTrophies)" : "")
            parts.append("\(trophies) \(won) \(award)\(won == 1 ? "" : "s")")
        } else if let award = awards.topAward, let nominated = awards.topNominations {
            parts.append("nominated for \(nominated) \(award)\(nominated == 1 ? "" : "s")")
        }
        if let wins = awards.wins { parts.append("\(wins) win\(wins == 1 ? "" : "s")") }
        if let nominations = awards.nominations { parts.append("\(nominations) nomination\(nominations == 1 ? "" : "s")") }
        return parts.isEmpty ? awards.text : parts.joined(separator: " · ")
    }

    /// `$37,030,102`.
    public var boxOfficeText: String? { boxOffice.map { "$" + GroupedDigits.of($0) } }

    /// `2.3M`, `845K`, `950`.
    static func compact(_ n: Int) -> String {
        if n >= 1_000_000 { return oneDecimal(Double(n) / 1_000_000).replacingSuffix(".0", with: "") + "M" }
        if n >= 10_000 { return "\(n / 1000)K" }
        if n >= 1_000 { return oneDecimal(Double(n) / 1000).replacingSuffix(".0", with: "") + "K" }
        return String(n)
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A stable name for scripts of what asking OMDb came to: `found`, `stale`, `missing`,
    /// `no-imdb-id`, `budget-spent`, `key-refused`, `not-cached`, `unavailable`; `off` when
    /// OMDb is not configured (nil lookup).
    public static func status(of lookup: OMDbLookup?) -> String {
        switch lookup {
        case nil: "off"
        case .found(_, let stale)?: stale ? "stale" : "found"
        case .missing?: "missing"
        case .unavailable(let failure)?:
            switch failure {
            case .noIMDbID: "no-imdb-id"
            case .budgetSpent: "budget-spent"
            case .keyRefused: "key-refused"
            case .notCached: "not-cached"
            case .unavailable: "unavailable"
            }
        }
    }
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}

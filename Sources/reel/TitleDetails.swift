import Catalog
import Foundation
import JSONKit
import Ledger
import Reel

/// A movie's or series' details as `reel show` presents them: one shape for both, built from
/// the catalog's answers.
struct TitleDetails {
    let key: MediaKey
    let title: String
    let originalTitle: String?
    let date: TMDbDate?
    let endDate: TMDbDate?
    let genres: [String]
    let overview: String?
    let tagline: String?
    let voteAverage: Double
    let voteCount: Int
    let popularity: Double
    let runtime: Int?
    let seasons: Int?
    let episodes: Int?
    let status: String?
    let originalLanguage: String?
    let spokenLanguages: [String]
    let companies: [String]
    let people: [(role: String, names: [String])]
    let trailers: [(name: String, url: String)]
    let posterURL: String?
    let backdropURL: String?
    let similar: [(key: MediaKey, title: String, year: Int?)]

    static func fetch(_ key: MediaKey, language: String, similar wantSimilar: Bool, from client: CatalogClient) async throws -> TitleDetails {
        let images = try await client.configuration().images
        var appending: Set<CatalogRequest.Appendix> = [.credits, .videos]
        if wantSimilar { appending.insert(.similar) }
        switch key.mediaType {
        case .movie:
            let m = try await client.movie(Int(key.id), language: language, appending: appending)
            let directors: [String] = m.credits?.directors.map(\.name) ?? []
            let cast: [String] = m.credits.map { Array($0.cast.prefix(5)).map(\.name) } ?? []
            let trailers: [(name: String, url: String)] = (m.videos?.trailers ?? []).compactMap { v in v.watchURL.map { (v.name, $0) } }
            let similar: [(key: MediaKey, title: String, year: Int?)] = (m.similar?.results ?? []).compactMap { s in
                guard let k = try? MediaKey(.movie, Int64(s.id)) else { return nil }
                return (k, s.title, s.releaseDate?.year)
            }
            return TitleDetails(
                key: key, title: m.title, originalTitle: m.originalTitle, date: m.releaseDate, endDate: nil,
                genres: m.genres.map(\.name), overview: m.overview, tagline: m.tagline, voteAverage: m.voteAverage,
                voteCount: m.voteCount, popularity: m.popularity, runtime: m.runtime, seasons: nil, episodes: nil,
                status: m.status, originalLanguage: m.originalLanguage, spokenLanguages: m.spokenLanguages.map(\.displayName),
                companies: m.productionCompanies.map(\.name),
                people: [("Directed by", directors), ("Starring", cast)], trailers: trailers,
                posterURL: images.url(m.posterPath, kind: .poster, size: "w500"),
                backdropURL: images.url(m.backdropPath, kind: .backdrop, size: "w1280"), similar: similar
            )
        case .tv:
            let s = try await client.series(Int(key.id), language: language, appending: appending)
            let creators: [String] = s.createdBy.map(\.name)
            let cast: [String] = s.credits.map { Array($0.cast.prefix(5)).map(\.name) } ?? []
            let trailers: [(name: String, url: String)] = (s.videos?.trailers ?? []).compactMap { v in v.watchURL.map { (v.name, $0) } }
            let similar: [(key: MediaKey, title: String, year: Int?)] = (s.similar?.results ?? []).compactMap { r in
                guard let k = try? MediaKey(.tv, Int64(r.id)) else { return nil }
                return (k, r.name, r.firstAirDate?.year)
            }
            return TitleDetails(
                key: key, title: s.name, originalTitle: s.originalName, date: s.firstAirDate, endDate: s.lastAirDate,
                genres: s.genres.map(\.name), overview: s.overview, tagline: s.tagline, voteAverage: s.voteAverage,
                voteCount: s.voteCount, popularity: s.popularity, runtime: s.episodeRunTime.first, seasons: s.numberOfSeasons,
                episodes: s.numberOfEpisodes, status: s.status, originalLanguage: s.originalLanguage,
                spokenLanguages: s.spokenLanguages.map(\.displayName), companies: (s.networks + s.productionCompanies).map(\.name),
                people: [("Created by", creators), ("Starring", cast)], trailers: trailers,
                posterURL: images.url(s.posterPath, kind: .poster, size: "w500"),
                backdropURL: images.url(s.backdropPath, kind: .backdrop, size: "w1280"), similar: similar
            )
        }
    }

    /// The same details with every text from TMDb made one terminal-safe line (`TerminalText`);
    /// the overview keeps its paragraphs, each made safe by `render`.
    private func terminalSafe() -> TitleDetails {
        let safe = TerminalText.field
        return TitleDetails(
            key: key, title: safe(title), originalTitle: originalTitle.map(safe), date: date, endDate: endDate,
            genres: genres.map(safe), overview: overview, tagline: tagline.map(safe), voteAverage: voteAverage,
            voteCount: voteCount, popularity: popularity, runtime: runtime, seasons: seasons, episodes: episodes,
            status: status.map(safe), originalLanguage: originalLanguage.map(safe), spokenLanguages: spokenLanguages.map(safe),
            companies: companies.map(safe), people: people.map { ($0.role, $0.names.map(safe)) },
            trailers: trailers.map { (safe($0.name), safe($0.url)) }, posterURL: posterURL.map(safe),
            backdropURL: backdropURL.map(safe), similar: similar.map { ($0.key, safe($0.title), $0.year) })
    }

    func render(savedAt: Int64?, width: Int) -> String {
        let details = terminalSafe()
        return details.renderSafe(savedAt: savedAt, width: width)
    }

    private func renderSafe(savedAt: Int64?, width: Int) -> String {
        var lines: [String] = []
        let year = date.map { " (\($0.year))" } ?? ""
        lines.append(Terminal.bold(title + year) + "  " + Terminal.dim(key.description))
        if let originalTitle, originalTitle != title { lines.append("Original title: \(originalTitle)") }
        var facts: [String] = []
        if let date { facts.append((key.mediaType == .movie ? "released " : "first aired ") + date.description) }
        if let endDate, key.mediaType == .tv { facts.append("last aired \(endDate)") }
        if let runtime { facts.append(key.mediaType == .movie ? "\(runtime) min" : "\(runtime) min per episode") }
        if let seasons { facts.append("\(seasons) season\(seasons == 1 ? "" : "s")") }
        if let episodes { facts.append("\(episodes) episodes") }
        if let status { facts.append(status) }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        if !genres.isEmpty { lines.append("Genres: " + genres.joined(separator: ", ")) }
        lines.append(String(format: "Rating: %.1f/10 from %@ votes · popularity %.1f", voteAverage, voteCount.formatted(), popularity))
        if let tagline { lines.append(Terminal.yellow("“\(tagline)”")) }
        if let overview {
            lines.append("")
            lines.append(contentsOf: TerminalText.lines(overview))
            lines.append("")
        }
        for (role, names) in people where !names.isEmpty { lines.append("\(role): " + names.joined(separator: ", ")) }
        var languages: [String] = []
        if let originalLanguage { languages.append("original \(originalLanguage)") }
        if !spokenLanguages.isEmpty { languages.append("spoken " + spokenLanguages.joined(separator: ", ")) }
        if !languages.isEmpty { lines.append("Languages: " + languages.joined(separator: "; ")) }
        if !companies.isEmpty { lines.append("Production: " + companies.joined(separator: ", ")) }
        for trailer in trailers.prefix(3) { lines.append("Trailer: \(trailer.url)  \(Terminal.dim(trailer.name))") }
        if let posterURL { lines.append("Poster: \(posterURL)") }
        if let backdropURL { lines.append("Backdrop: \(backdropURL)") }
        lines.append(savedAt.map { Terminal.green("Saved since \(Timestamp.short($0))") } ?? "Not saved (reel fav add \(key))")
        if !similar.isEmpty {
            lines.append("")
            lines.append("Similar:")
            for s in similar { lines.append("  \(s.key)  \(s.title)" + (s.year.map { " (\($0))" } ?? "")) }
        }
        // Lines wider than the terminal are wrapped; a painted one loses its colour to be wrapped.
        return lines.flatMap { line -> [String] in
            let plain = Terminal.unpainted(line)
            return plain.count <= width ? [line] : Terminal.wrap(plain, width: width)
        }.joined(separator: "\n")
    }

    func json(savedAt: Int64?, language: String) -> JSONValue {
        func list(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
        return [
            "mediaType": .string(key.mediaType.rawValue), "id": .integer(key.id), "language": .string(language),
            "title": .string(title), "originalTitle": .init(originalTitle.map(JSONValue.string)),
            "date": .init(date.map { .string($0.description) }), "lastAirDate": .init(endDate.map { .string($0.description) }),
            "genres": list(genres), "overview": .init(overview.map(JSONValue.string)), "tagline": .init(tagline.map(JSONValue.string)),
            "voteAverage": .double(voteAverage), "voteCount": .integer(Int64(voteCount)), "popularity": .double(popularity),
            "runtime": .init(runtime.map { .integer(Int64($0)) }), "seasons": .init(seasons.map { .integer(Int64($0)) }),
            "episodes": .init(episodes.map { .integer(Int64($0)) }), "status": .init(status.map(JSONValue.string)),
            "originalLanguage": .init(originalLanguage.map(JSONValue.string)), "spokenLanguages": list(spokenLanguages),
            "companies": list(companies),
            "people": .array(people.map { ["role": .string($0.role), "names": list($0.names)] }),
            "trailers": .array(trailers.map { ["name": .string($0.name), "url": .string($0.url)] }),
            "posterURL": .init(posterURL.map(JSONValue.string)), "backdropURL": .init(backdropURL.map(JSONValue.string)),
            "saved": .bool(savedAt != nil), "savedAt": .init(savedAt.map { .string(UTCTime.iso($0)) }),
            "similar": .array(similar.map { ["mediaType": .string($0.key.mediaType.rawValue), "id": .integer($0.key.id), "title": .string($0.title), "year": .init($0.year.map { .integer(Int64($0)) })] }),
        ]
    }
}

import Foundation
import Presentation
import Reel

/// A title's details as `reel show` presents them: text (each text from TMDb made
/// terminal-safe) or JSON.
extension TitleDetailsReport {
    /// The same details with every text from TMDb made one terminal-safe line (`TerminalText`);
    /// the overview keeps its paragraphs, each made safe by `render`.
    private func terminalSafe() -> TitleDetailsReport {
        let safe = TerminalText.field
        var details = self
        details.title = safe(title)
        details.originalTitle = originalTitle.map(safe)
        details.genres = genres.map(safe)
        details.tagline = tagline.map(safe)
        details.status = status.map(safe)
        details.originalLanguage = originalLanguage.map(safe)
        details.spokenLanguages = spokenLanguages.map(safe)
        details.companies = companies.map(safe)
        details.people = people.map { ($0.role, $0.names.map(safe)) }
        details.trailers = trailers.map { (safe($0.name), safe($0.url)) }
        details.posterURL = posterURL.map(safe)
        details.backdropURL = backdropURL.map(safe)
        for i in details.similar.indices { details.similar[i].title = safe(similar[i].title) }
        if var omdb {
            omdb.rated = omdb.rated.map(safe)
            omdb.directors = omdb.directors.map(safe)
            omdb.writers = omdb.writers.map(safe)
            omdb.actors = omdb.actors.map(safe)
            omdb.awards = omdb.awards.map { OMDbAwards(safe($0.text)) }
            details.omdb = omdb
        }
        return details
    }

    func render(width: Int) -> String {
        terminalSafe().renderSafe(width: width)
    }

    private func renderSafe(width: Int) -> String {
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
        lines += omdbLines()
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
        lines.append(savedAt.map { Terminal.green("Saved since \(Timestamp.labelled($0))") } ?? "Not saved (reel fav add \(key))")
        // Lines wider than the terminal are wrapped; a painted one loses its colour to be wrapped.
        var text = lines.flatMap { line -> [String] in
            let plain = Terminal.unpainted(line)
            return DisplayWidth.columns(plain) <= width ? [line] : Terminal.wrap(plain, width: width)
        }.joined(separator: "\n")
        if !similar.isEmpty { text += "\n\nSimilar:\n" + similarTable(width: width) }
        return text
    }

    /// OMDb's facts: the critics' scores, the awards with a trophy per win of the top award, box
    /// office, certificate, director and writer (only those OMDb has; none when it has nothing).
    private func omdbLines() -> [String] {
        guard let omdb else { return [] }
        var lines: [String] = []
        if let ratings = omdb.ratingsLine { lines.append("Ratings: " + ratings + (omdb.stale ? Terminal.dim(" (OMDb, older than a week)") : "")) }
        if let awards = omdb.awardsLine { lines.append("Awards: " + awards) }
        var facts: [String] = []
        if let rated = omdb.rated { facts.append("Rated \(rated)") }
        if let boxOffice = omdb.boxOfficeText { facts.append("box office \(boxOffice)") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        if !omdb.directors.isEmpty { lines.append("Director: " + omdb.directors.joined(separator: ", ")) }
        if !omdb.writers.isEmpty { lines.append("Writer: " + omdb.writers.joined(separator: ", ")) }
        return lines
    }

    /// The similar titles as the lists show titles: aligned columns, a ★ on those the account saved.
    private func similarTable(width: Int) -> String {
        var table = TextTable([" ", "TMDB ID", "TITLE", "YEAR"], alignments: [.left, .right, .left, .right])
        for s in similar {
            table.add([s.savedAt != nil ? TitleList.savedMark : " ", String(s.key.id), s.title, s.year.map(String.init) ?? ""])
        }
        let legend = similar.contains { $0.savedAt != nil } ? "\n" + Terminal.dim("\(TitleList.savedMark) saved") : ""
        return table.render(width: width, flexible: [.init(2, minimum: 10)]) + legend
    }

}

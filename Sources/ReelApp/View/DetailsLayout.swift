import Presentation
import Reel

/// A title's details as lines for a screen `width` wide: every field `reel show` prints (TMDb's
/// facts, then OMDb's ratings, awards, box office, certificate and credits when it had them), the
/// overview and long lists wrapped, then the cast and the similar titles, one a line, each
/// linking to what `enter` opens. The update moves the cursor over these lines and the view
/// draws them, so both agree on what is where. Texts are made terminal-safe before they are
/// wrapped; wide characters count two columns.
enum DetailsLayout {
    /// Where a line leads.
    enum Target: Equatable {
        case person(id: Int, name: String)
        case title(MediaKey, String)
    }

    struct Line: Equatable {
        var text: String
        var style = CellStyle.plain
        var target: Target?
        /// Drawn with a ★ before it (a saved similar title).
        var saved = false
        /// The URL the text links to (a trailer, the poster), safe for an OSC 8 hyperlink
        /// (`Hyperlinks.safe`); the text shows the URL too.
        var link: String?
    }

    /// Columns a line may take: the screen less the cursor's two and a margin.
    static func textWidth(_ width: Int) -> Int { max(10, width - 3) }

    static func lines(_ d: TitleDetails, width: Int) -> [Line] {
        let room = textWidth(width)
        var lines: [Line] = []
        func add(_ text: String, _ style: CellStyle = .plain, link: String? = nil) {
            let link = link.flatMap(Hyperlinks.safe)
            for line in DisplayWidth.wrap(TerminalText.field(text), width: room, breakingWords: true) {
                lines.append(Line(text: line, style: style, link: link))
            }
        }
        if let original = d.originalTitle, original != d.title { add("Original title: \(original)") }
        if !facts(d).isEmpty { add(facts(d).joined(separator: " · ")) }
        if !d.genres.isEmpty { add("Genres: " + d.genres.joined(separator: ", ")) }
        add("Rating: \(RowColumns.oneDecimal(d.voteAverage))/10 from \(GroupedDigits.of(d.voteCount)) votes · popularity \(RowColumns.oneDecimal(d.popularity))")
        for (text, dim) in omdb(d) { add(text, dim ? CellStyle(.dim) : .plain) }
        if let tagline = d.tagline, !tagline.isEmpty { add("“\(tagline)”", CellStyle(.dim)) }
        if let overview = d.overview, !overview.isEmpty {
            lines.append(Line(text: ""))
            for paragraph in TerminalText.lines(overview) {
                if paragraph.isEmpty { lines.append(Line(text: "")) } else { add(paragraph) }
            }
        }
        lines.append(Line(text: ""))
        if let makers = d.makers, !makers.names.isEmpty { add("\(makers.role): " + makers.names.joined(separator: ", ")) }
        var languages: [String] = []
        if let original = d.originalLanguage { languages.append("original \(original)") }
        if !d.spokenLanguages.isEmpty { languages.append("spoken " + d.spokenLanguages.joined(separator: ", ")) }
        if !languages.isEmpty { add("Languages: " + languages.joined(separator: "; ")) }
        if !d.companies.isEmpty { add("Production: " + d.companies.joined(separator: ", ")) }
        // The URLs stay visible: where the terminal shows no OSC 8 links, it is the link.
        for trailer in d.trailers.prefix(3) { add("Trailer: \(trailer.url) · \(trailer.name)", link: trailer.url) }
        if let poster = d.posterURL { add("Poster: \(poster)", link: poster) }
        if let backdrop = d.backdropURL { add("Backdrop: \(backdrop)", link: backdrop) }
        if !d.cast.isEmpty {
            lines.append(Line(text: ""))
            lines.append(Line(text: "Cast (enter opens a person)", style: CellStyle(.bold)))
            for member in d.cast {
                let role = member.character.flatMap { $0.isEmpty ? nil : " as \($0)" } ?? ""
                lines.append(Line(text: member.name + role, target: .person(id: member.id, name: member.name)))
            }
        }
        if !d.similar.isEmpty {
            lines.append(Line(text: ""))
            lines.append(Line(text: "Similar titles (enter opens one)", style: CellStyle(.bold)))
            for row in d.similar {
                let year = row.year.map { " (\($0))" } ?? ""
                lines.append(Line(text: row.title + year, target: .title(row.key, row.title), saved: row.saved))
            }
        }
        return lines
    }

    /// OMDb's lines, those it had, as `reel show` words them: `Ratings`, `Awards` (a 🏆 per win
    /// of the top award, two columns each), `Rated R · box office $…`, `Director`, `Writer`; a
    /// dim note when its answer is older than a week, or why there is none when asking OMDb
    /// failed (told once on the status line too, but each title's screen says it again). Nothing
    /// when OMDb is off, lacks the title, or TMDb has no IMDb id for it.
    static func omdb(_ d: TitleDetails) -> [(text: String, dim: Bool)] {
        guard let omdb = d.omdb else {
            let why: String? =
                switch d.omdbStatus {
                case "budget-spent": "today's OMDb budget is spent"
                case "key-refused": "OMDb refused the key"
                case "not-cached": "not cached, and reel is offline"
                case "unavailable": "OMDb is unavailable"
                default: nil
                }
            return why.map { [("(no OMDb ratings: \($0))", true)] } ?? []
        }
        var lines: [(text: String, dim: Bool)] = []
        if let ratings = omdb.ratings { lines.append(("Ratings: " + ratings, false)) }
        if let awards = omdb.awards { lines.append(("Awards: " + awards, false)) }
        let facts = [omdb.rated.map { "Rated \($0)" }, omdb.boxOffice.map { "box office \($0)" }].compactMap { $0 }
        if !facts.isEmpty { lines.append((facts.joined(separator: " · "), false)) }
        // OMDb's directors only when TMDb's `Directed by` does not name the same people: a label once.
        if !omdb.directors.isEmpty, Set(omdb.directors) != Set(d.makers?.names ?? []) {
            lines.append(("Director: " + omdb.directors.joined(separator: ", "), false))
        }
        if !omdb.writers.isEmpty { lines.append(("Writer: " + omdb.writers.joined(separator: ", "), false)) }
        if omdb.stale, !lines.isEmpty { lines.append(("(OMDb, older than a week: it could not be asked again)", true)) }
        return lines
    }

    /// `released 1999-03-30 · 136 min · Released`; a series' first and last air dates, minutes
    /// per episode, seasons and episodes.
    static func facts(_ d: TitleDetails) -> [String] {
        let movie = d.key.mediaType == .movie
        var facts: [String] = []
        if let date = d.date { facts.append((movie ? "released " : "first aired ") + date) }
        if let end = d.endDate, !movie { facts.append("last aired \(end)") }
        if let runtime = d.runtime { facts.append(movie ? "\(runtime) min" : "\(runtime) min per episode") }
        if let seasons = d.seasons { facts.append("\(seasons) season\(seasons == 1 ? "" : "s")") }
        if let episodes = d.episodes { facts.append("\(episodes) episodes") }
        if let status = d.status { facts.append(status) }
        return facts
    }
}

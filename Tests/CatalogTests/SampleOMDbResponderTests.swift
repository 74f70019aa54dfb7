import Foundation
import JSONKit
import Ledger
import Testing
@testable import Catalog

/// OMDb's API answered from the sample catalog (no HTTP): by IMDb id, by title, its errors, and
/// the generated facts of synthetic movies. Every sample title's facts read as the client reads
/// OMDb's answers.
@Suite struct SampleOMDbResponderTests {
    static let responder = SampleOMDbResponder(catalog: .bundled)

    static func answer(_ query: [(String, String)], _ responder: SampleOMDbResponder = responder) -> SampleOMDbResponder.Answer {
        responder.respond(query: query.map { QueryItem($0.0, $0.1) })
    }

    static func text(_ answer: SampleOMDbResponder.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    /// The answer read as the client reads OMDb's: a title, which must have come with 200.
    static func title(_ answer: SampleOMDbResponder.Answer, sourceLocation: SourceLocation = #_sourceLocation) throws -> OMDbTitle {
        try #require(answer.status == 200, sourceLocation: sourceLocation)
        guard case .title(let title)? = OMDbAnswer(body: answer.body) else {
            Issue.record("not an OMDb title: \(text(answer).prefix(300))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return title
    }

    /// Every title of the catalog with its IMDb id, as TMDb gives it (movie details' `imdb_id`,
    /// series' `external_ids`).
    static var titlesWithIMDbIDs: [(MediaType, Int, String)] {
        SampleCatalog.bundled.movies.compactMap { m in m.imdb_id.map { (.movie, m.id, $0) } }
            + SampleCatalog.bundled.series.compactMap { s in s.imdb_id.map { (.tv, s.id, $0) } }
    }

    @Test func fightClubByIDIsOMDbsObjectByteForByte() throws {
        let answer = Self.answer([("i", "tt0137523"), ("apikey", "ignored-here")])
        let m = try Self.title(answer)
        #expect(m.imdbID == "tt0137523" && m.title == "Fight Club" && m.year == "1999" && m.type == "movie" && m.rated == "R")
        #expect(m.imdbRating == 8.8 && m.tomatometer == 81 && m.metascore == 67 && m.boxOffice == 37_030_102)
        #expect((m.imdbVotes ?? 0) > 2_000_000 && m.directors == ["David Fincher"])
        #expect(m.awards?.topAward == "Oscar" && m.awards?.topNominations == 1)
        // Compact JSON, OMDb's members in OMDb's order, Ratings as {Source, Value}.
        let text = Self.text(answer)
        #expect(text.hasPrefix(#"{"Title":"Fight Club","Year":"1999","Rated":"R","Released":"15 Oct 1999","#))
        #expect(text.contains(#""Ratings":[{"Source":"Internet Movie Database","Value":"8.8/10"},{"Source":"Rotten Tomatoes","Value":"81%"},{"Source":"Metacritic","Value":"67/100"}],"Metascore":"67""#))
        #expect(text.hasSuffix(#""imdbID":"tt0137523","Type":"movie","DVD":"N/A","BoxOffice":"$37,030,102","Production":"N/A","Website":"N/A","Response":"True"}"#))
        #expect(!text.contains(" \"") && !text.contains("\n"))
        #expect(!text.contains("ignored-here"), "the key is never answered")
    }

    @Test func aSeriesByIDHasSeasonsAndAYearRange() throws {
        let s = try Self.title(Self.answer([("i", "tt0903747")]))
        #expect(s.title == "Breaking Bad" && s.type == "series" && s.year == "2008–2013" && s.totalSeasons == 5)
        #expect(s.imdbRating == 9.5 && s.tomatometer == nil && s.metascore == nil && s.boxOffice == nil)
        #expect(s.writers == ["Vince Gilligan"] && s.directors.isEmpty)
        let running = try Self.title(Self.answer([("i", "tt2861424")]))
        #expect(running.year == "2013–", "a running series' range is open")
        let text = Self.text(Self.answer([("i", "tt0903747")]))
        #expect(text.hasSuffix(#""imdbID":"tt0903747","Type":"series","totalSeasons":"5","Response":"True"}"#))
    }

    @Test(arguments: ["tt0000001", "tt9999999", "nm0000093", "0137523", "tt", "x", "tt0137523x", "tt90000001"])
    func anIDTheCatalogLacksIsIncorrect(_ id: String) {
        let answer = Self.answer([("i", id)])
        #expect(answer.status == 200)
        #expect(Self.text(answer) == #"{"Response":"False","Error":"Incorrect IMDb ID."}"#)
        #expect(OMDbAnswer(body: answer.body) == .notFound("Incorrect IMDb ID."))
    }

    @Test func neitherIDNorTitleIsIncorrectIMDbID() {
        for query in [[], [("apikey", "k")], [("i", "")], [("t", "")], [("y", "1999")], [("plot", "full")]] {
            let answer = Self.answer(query)
            #expect(answer.status == 200 && Self.text(answer) == #"{"Response":"False","Error":"Incorrect IMDb ID."}"#, "\(query)")
        }
    }

    @Test func byTitleIgnoringCaseAndAccentsWithYearAndType() throws {
        #expect(try Self.title(Self.answer([("t", "fight club")])).imdbID == "tt0137523")
        #expect(try Self.title(Self.answer([("T", "FIGHT CLUB"), ("Y", "1999")])).imdbID == "tt0137523", "names in any case")
        #expect(try Self.title(Self.answer([("t", "the office"), ("type", "series")])).imdbID == "tt0386676")
        #expect(try Self.title(Self.answer([("t", "The Lives of Others"), ("y", "2006")])).imdbID == "tt0405094")
        // OMDb's own name, which is not TMDb's.
        #expect(try Self.title(Self.answer([("t", "Star Wars: Episode IV - A New Hope")])).imdbID == "tt0076759")
        #expect(try Self.title(Self.answer([("t", "Good Bye, Lenin!")])).imdbID == "tt0301357")
        // A series matches any year it ran.
        #expect(try Self.title(Self.answer([("t", "Breaking Bad"), ("y", "2010")])).imdbID == "tt0903747")
        #expect(try Self.title(Self.answer([("t", "The Simpsons"), ("y", "2024")])).imdbID == "tt0096697")
        let misses: [[(String, String)]] = [
            [("t", "Fight Club"), ("y", "2000")], [("t", "Fight Club"), ("type", "series")], [("t", "Fight")],
            [("t", "Breaking Bad"), ("y", "2007")], [("t", "Fight Club"), ("y", "nineteen")], [("t", "No Such Film")],
        ]
        for query in misses {
            let answer = Self.answer(query)
            #expect(answer.status == 200 && Self.text(answer) == #"{"Response":"False","Error":"Movie not found!"}"#, "\(query)")
            #expect(OMDbAnswer(body: answer.body) == .notFound("Movie not found!"))
        }
        // By id wins over by title, as OMDb does.
        #expect(try Self.title(Self.answer([("t", "The Office"), ("i", "tt0137523")])).imdbID == "tt0137523")
    }

    @Test func everyTitleWithAnIMDbIDHasFactsTheClientReads() throws {
        var allNA: [String] = []
        var onlyIMDb = 0
        let titles = Self.titlesWithIMDbIDs
        #expect(titles.count >= 100)
        for (mediaType, id, imdbID) in titles {
            let t = try Self.title(Self.answer([("i", imdbID)]))
            #expect(t.imdbID == imdbID)
            #expect(t.type == (mediaType == .movie ? "movie" : "series"), "\(imdbID)")
            #expect(t.title?.isEmpty == false && t.year?.isEmpty == false, "\(imdbID)")
            if t.imdbRating == nil {
                allNA.append(imdbID)
                #expect(t.rated == nil && t.runtime == nil && t.genres.isEmpty && t.actors.isEmpty && t.awards == nil, "\(imdbID)")
                #expect(t.imdbVotes == nil && t.metascore == nil && t.tomatometer == nil && t.boxOffice == nil, "\(imdbID)")
                continue
            }
            #expect((t.imdbVotes ?? 0) > 1000, "\(imdbID) has votes with its rating")
            #expect(!t.genres.isEmpty && !t.actors.isEmpty, "\(imdbID)")
            if mediaType == .tv {
                let series = try #require(SampleCatalog.bundled.series(id))
                #expect(t.totalSeasons == series.number_of_seasons, "\(imdbID)")
                if t.tomatometer == nil && t.metascore == nil { onlyIMDb += 1 }
            }
        }
        #expect(allNA == ["tt0382301"], "Skellig is the one title OMDb knows next to nothing about")
        #expect(onlyIMDb >= 3, "series with only the IMDb rating")
    }

    @Test func theIMDbIDsAreTheOnesTMDbGives() throws {
        for (mediaType, id, imdbID) in Self.titlesWithIMDbIDs {
            let path = mediaType == .movie ? "/movie/\(id)" : "/tv/\(id)"
            let details = try JSONValue(parsing: SampleAPI.answer(path, ["append_to_response": "external_ids"]).body)
            #expect(details["external_ids"]?["imdb_id"]?.stringValue == imdbID, "\(path)")
            if mediaType == .movie { #expect(details["imdb_id"]?.stringValue == imdbID, "\(path)") }
        }
    }

    @Test func syntheticMoviesHaveGeneratedFactsForTheirIMDbIDs() throws {
        let catalog = SampleCatalog.bundled.withSyntheticMovies(500)
        let responder = SampleOMDbResponder(catalog: catalog)
        var ratings = Set<Double>(), withoutMetascore = 0, withoutTomatometer = 0, withoutBoxOffice = 0, withoutAwards = 0
        for n in 1...500 {
            let id = SampleCatalog.syntheticBase + n
            let imdbID = "tt\(id)"
            let answer = Self.answer([("i", imdbID)], responder)
            let t = try Self.title(answer)
            #expect(t.imdbID == imdbID && t.type == "movie" && t.title == catalog.movie(id)?.title)
            let rating = try #require(t.imdbRating, "\(imdbID) always has an IMDb rating")
            #expect((1...10).contains(rating) && (t.imdbVotes ?? 0) >= 100)
            ratings.insert(rating)
            if t.metascore == nil { withoutMetascore += 1 }
            if t.tomatometer == nil { withoutTomatometer += 1 }
            if t.boxOffice == nil { withoutBoxOffice += 1 }
            if t.awards == nil { withoutAwards += 1 }
            #expect(Self.answer([("i", imdbID)], responder).body == answer.body, "the same facts every time")
            // TMDb gives the same id, so the join holds for synthetic movies too.
            let details = try JSONValue(parsing: SampleResponder(catalog: catalog).respond(path: "/movie/\(id)", query: [QueryItem("append_to_response", "external_ids")]).body)
            #expect(details["imdb_id"]?.stringValue == imdbID && details["external_ids"]?["imdb_id"]?.stringValue == imdbID)
        }
        #expect(ratings.count > 50, "ratings vary")
        for (count, what) in [(withoutMetascore, "Metascore"), (withoutTomatometer, "Tomatometer"), (withoutBoxOffice, "box office"), (withoutAwards, "awards")] {
            #expect((20..<250).contains(count), "\(count) of 500 without \(what)")
        }
        // Beyond the synthetic movies there are none.
        #expect(Self.text(Self.answer([("i", "tt\(SampleCatalog.syntheticBase + 501)")], responder)).contains("Incorrect IMDb ID."))
        #expect(Self.text(Self.answer([("i", "tt\(SampleCatalog.syntheticBase + 1)")])).contains("Incorrect IMDb ID."), "the plain catalog has none")
    }

    @Test func errorBodiesAreOMDbs() {
        #expect(SampleOMDbResponder.noAPIKey.status == 401 && OMDbAnswer(body: SampleOMDbResponder.noAPIKey.body) == .invalidKey("No API key provided."))
        #expect(SampleOMDbResponder.invalidAPIKey.status == 401 && OMDbAnswer(body: SampleOMDbResponder.invalidAPIKey.body) == .invalidKey("Invalid API key!"))
        #expect(SampleOMDbResponder.limitReached.status == 401 && OMDbAnswer(body: SampleOMDbResponder.limitReached.body) == .limitReached("Request limit reached!"))
        let odd = SampleOMDbResponder.error(#"Quote " and \ backslash"#)
        #expect(odd.status == 200 && OMDbAnswer(body: odd.body) == .failed(#"Quote " and \ backslash"#))
    }
}

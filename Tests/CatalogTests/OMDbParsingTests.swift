import Testing
@testable import Catalog

/// OMDb's shapes as its API writes them (every value a string, `"N/A"` for missing, thousands
/// separators, `Ratings` as source/value pairs, errors with `Response: "False"`), read into
/// numbers and absences (issue 22's client builds on these).
@Suite struct OMDbParsingTests {
    static let movie = #"""
    {"Title":"Fight Club","Year":"1999","Rated":"R","Released":"15 Oct 1999","Runtime":"139 min","Genre":"Drama",
     "Director":"David Fincher","Writer":"Chuck Palahniuk, Jim Uhls","Actors":"Brad Pitt, Edward Norton, Meat Loaf",
     "Plot":"An insomniac office worker and a devil-may-care soap maker form an underground fight club.",
     "Language":"English","Country":"Germany, United States","Awards":"Nominated for 1 Oscar. 11 wins & 38 nominations total",
     "Poster":"https://m.media-amazon.com/images/M/x.jpg",
     "Ratings":[{"Source":"Internet Movie Database","Value":"8.8/10"},{"Source":"Rotten Tomatoes","Value":"79%"},{"Source":"Metacritic","Value":"67/100"}],
     "Metascore":"67","imdbRating":"8.8","imdbVotes":"2,512,345","imdbID":"tt0137523","Type":"movie","DVD":"N/A",
     "BoxOffice":"$37,030,102","Production":"N/A","Website":"N/A","Response":"True"}
    """#

    static let series = #"""
    {"Title":"Breaking Bad","Year":"2008–2013","Rated":"TV-MA","Released":"20 Jan 2008","Runtime":"49 min",
     "Genre":"Crime, Drama, Thriller","Director":"N/A","Writer":"Vince Gilligan","Actors":"Bryan Cranston, Aaron Paul, Anna Gunn",
     "Plot":"A chemistry teacher turns to crime.","Language":"English, Spanish","Country":"United States",
     "Awards":"Won 16 Primetime Emmys. 171 wins & 267 nominations total","Poster":"N/A",
     "Ratings":[{"Source":"Internet Movie Database","Value":"9.5/10"}],"Metascore":"N/A","imdbRating":"9.5",
     "imdbVotes":"2,214,108","imdbID":"tt0903747","Type":"series","totalSeasons":"5","Response":"True"}
    """#

    static let sparse = #"""
    {"Title":"A Short","Year":"2021","Rated":"N/A","Released":"N/A","Runtime":"N/A","Genre":"N/A","Director":"N/A",
     "Writer":"N/A","Actors":"N/A","Plot":"N/A","Language":"N/A","Country":"N/A","Awards":"N/A","Poster":"N/A",
     "Ratings":[],"Metascore":"N/A","imdbRating":"N/A","imdbVotes":"N/A","imdbID":"tt9999991","Type":"movie",
     "DVD":"N/A","BoxOffice":"N/A","Production":"N/A","Website":"N/A","Response":"True"}
    """#

    static func title(_ json: String) throws -> OMDbTitle {
        guard case .title(let title) = try #require(OMDbAnswer(body: Array(json.utf8))) else {
            Issue.record("not a title")
            throw CancellationError()
        }
        return title
    }

    @Test func aMovieWithEveryScore() throws {
        let m = try Self.title(Self.movie)
        #expect(m.imdbID == "tt0137523" && m.title == "Fight Club" && m.year == "1999" && m.rated == "R")
        #expect(m.imdbRating == 8.8 && m.imdbVotes == 2_512_345 && m.tomatometer == 79 && m.metascore == 67)
        #expect(m.boxOffice == 37_030_102)
        #expect(m.directors == ["David Fincher"] && m.writers == ["Chuck Palahniuk", "Jim Uhls"])
        #expect(m.actors == ["Brad Pitt", "Edward Norton", "Meat Loaf"])
        let awards = try #require(m.awards)
        #expect(awards.topAward == "Oscar" && awards.topNominations == 1 && awards.topWins == nil)
        #expect(awards.wins == 11 && awards.nominations == 38)
    }

    @Test func aSeriesWithSeasonsAndOnlyTheIMDbRating() throws {
        let s = try Self.title(Self.series)
        #expect(s.type == "series" && s.totalSeasons == 5 && s.year == "2008–2013")
        #expect(s.imdbRating == 9.5 && s.tomatometer == nil && s.metascore == nil)
        #expect(s.directors.isEmpty && s.boxOffice == nil)
        let awards = try #require(s.awards)
        #expect(awards.topAward == "Primetime Emmy" && awards.topWins == 16 && awards.wins == 171 && awards.nominations == 267)
    }

    @Test func everythingNotApplicableIsAbsent() throws {
        let t = try Self.title(Self.sparse)
        #expect(t.rated == nil && t.runtime == nil && t.awards == nil && t.boxOffice == nil)
        #expect(t.imdbRating == nil && t.imdbVotes == nil && t.tomatometer == nil && t.metascore == nil)
        #expect(t.genres.isEmpty && t.actors.isEmpty)
    }

    @Test func theScoresInRatingsStandInForTheTopLevelOnes() throws {
        let json = #"{"imdbID":"tt1","imdbRating":"N/A","Metascore":"N/A","Ratings":[{"Source":"Internet Movie Database","Value":"7.1/10"},{"Source":"Metacritic","Value":"55/100"}],"Response":"True"}"#
        let t = try Self.title(json)
        #expect(t.imdbRating == 7.1 && t.metascore == 55)
    }

    @Test func omdbsErrorsAreTold() {
        #expect(OMDbAnswer(body: Array(#"{"Response":"False","Error":"Movie not found!"}"#.utf8)) == .notFound("Movie not found!"))
        #expect(OMDbAnswer(body: Array(#"{"Response":"False","Error":"Incorrect IMDb ID."}"#.utf8)) == .notFound("Incorrect IMDb ID."))
        #expect(OMDbAnswer(body: Array(#"{"Response":"False","Error":"Invalid API key!"}"#.utf8)) == .invalidKey("Invalid API key!"))
        #expect(OMDbAnswer(body: Array(#"{"Response":"False","Error":"Request limit reached!"}"#.utf8)) == .limitReached("Request limit reached!"))
        #expect(OMDbAnswer(body: Array(#"{"Response":"False","Error":"Too many results."}"#.utf8)) == .failed("Too many results."))
        #expect(OMDbAnswer(body: Array("<html>".utf8)) == nil)
        #expect(OMDbAnswer(body: Array(#"{"Response":"True"}"#.utf8)) == nil, "no imdbID: no title")
    }

    @Test func oddNumbersAreAbsentNotWrong() {
        #expect(OMDbValue.whole("1,2a") == nil && OMDbValue.whole("-5") == nil && OMDbValue.whole("$1,000") == 1000)
        #expect(OMDbValue.outOfTen("11/10") == nil && OMDbValue.outOfTen("nan") == nil && OMDbValue.outOfTen(" 6.0 ") == 6.0)
        #expect(OMDbValue.percent("101%") == nil && OMDbValue.percent("79") == nil && OMDbValue.percent("0%") == 0)
        #expect(OMDbValue.outOfHundred("67/100") == 67 && OMDbValue.outOfHundred("N/A") == nil)
        #expect(OMDbAwards("3 nominations").nominations == 3 && OMDbAwards("3 nominations").wins == nil)
        #expect(OMDbAwards("1 win & 2 nominations").wins == 1)
        #expect(OMDbAwards("Won 3 Oscars. 108 wins & 145 nominations total").topWins == 3)
    }
}

import Reel
import ReelApp
import Testing

/// Every screen of the app as a text snapshot (`ScreenSnapshot`, kept in `Snapshots/`) at the
/// smallest screen it lays out (80×24), a common one (120×40) and a wide one (250×70), through
/// the pure view: each tab, its error and empty states, details, a person, the pickers, the
/// help and the settings. A change to any of them shows in review as a diff of its file.
@Suite struct ScreenSnapshotTests {
    static let sizes = [(80, 24), (120, 40), (250, 70)]

    /// A model drawn at `width` × `height`, resized as the terminal would (cursors kept on screen).
    static func sized(_ model: AppModel, _ size: (Int, Int)) -> AppModel {
        var model = model
        model.width = size.0
        model.height = size.1
        // Through the update, as a resize comes: the lists' cursors are kept on screen.
        model = AppUpdate.update(model, .resized(width: size.0, height: size.1)).0
        return model
    }

    static func row(_ kind: MediaType, _ id: Int64, _ title: String, _ date: String, _ genres: [String], _ rating: Double?, saved: Bool = false) -> TitleRow {
        TitleRow(
            key: try! MediaKey(kind, id), title: title, year: Int(date.prefix(4)), date: date, genres: genres, rating: rating, saved: saved,
            posterPath: "/\(id).jpg")
    }

    /// Popular movies as the sample catalog lists them: long and short titles and genres, a saved
    /// one, a wide (CJK) title, one with a control sequence and no votes.
    static let movieRows: [TitleRow] = [
        row(.movie, 550, "Fight Club", "1999-10-15", ["Drama", "Thriller"], 8.438, saved: true),
        row(.movie, 603, "The Matrix", "1999-03-30", ["Action", "Science Fiction"], 8.217),
        row(.movie, 129, "千と千尋の神隠し", "2001-07-20", ["Animation", "Family", "Fantasy"], 8.5),
        row(.movie, 120, "The Lord of the Rings: The Fellowship of the Ring", "2001-12-18", ["Adventure", "Fantasy", "Action"], 8.4),
        row(.movie, 13, "Forrest Gump", "1994-06-23", ["Comedy", "Drama", "Romance"], 8.5, saved: true),
        row(.movie, 680, "Pulp Fiction", "1994-09-10", ["Thriller", "Crime"], 8.5),
        row(.movie, 9806, "The Incredibles", "2004-10-27", ["Action", "Adventure", "Animation", "Family"], 7.7),
        row(.movie, 1, "Bad\u{1B}]0;pwned\u{07}Title", "2020-01-01", [], nil),
        row(.movie, 420, "A Film Nobody Liked", "2011-02-03", ["Horror"], 4.1),
        row(.movie, 421, "Middling", "2015-05-05", ["Comedy"], 5.9),
    ]

    static func movies() -> AppModel {
        var model = AppModel(width: 80, height: 24, account: "ann", catalog: .sample)
        model.status.language = "en"
        model.movies.loaded = movieRows
        model.movies.pagesLoaded = 1
        model.movies.totalPages = 1
        model.movies.totalResults = movieRows.count
        model.movies.cursor = ListCursor(position: 1)
        return model
    }

    /// The Matrix's details as the preview shows them once loaded.
    static func withPreview(_ model: AppModel) -> AppModel {
        var model = model
        var details = SearchViewTests.matrixDetails().details!
        details.omdb = TitleDetails.OMDb(ratings: "IMDb 8.7 (2.1M votes) · Rotten Tomatoes 83% · Metacritic 73", rated: "R")
        model = AppUpdate.update(model, .details(.titleLoaded(details))).0
        return model
    }

    @Test(arguments: sizes) func movies(_ size: (Int, Int)) {
        ScreenSnapshot.check(Self.sized(Self.withPreview(Self.movies()), size), "movies")
    }

    @Test(arguments: sizes) func moviesWithPictures(_ size: (Int, Int)) {
        var model = Self.withPreview(Self.movies())
        model.pictures = PictureState(available: true, reason: "symbols")
        model = Self.sized(model, size)
        // The cursor rested on The Matrix: its poster's box shows (loading).
        model = AppUpdate.update(model, .preview(.settled(generation: model.preview.generation))).0
        ScreenSnapshot.check(model, "movies-pictures")
    }

    @Test(arguments: sizes) func moviesPreviewLoadingAndFailed(_ size: (Int, Int)) {
        var model = Self.movies()
        model.movies.cursor = ListCursor(position: 0)
        ScreenSnapshot.check(Self.sized(model, size), "movies-preview-loading")
        model = AppUpdate.update(model, .preview(.failed(Self.movieRows[0].key, message: "Couldn't reach TMDb: it answered 503 (unavailable)"))).0
        ScreenSnapshot.check(Self.sized(model, size), "movies-preview-failed")
    }

    @Test(arguments: sizes) func moviesFirstPageLoadingAndFailed(_ size: (Int, Int)) {
        var model = AppModel(width: 80, height: 24, account: "ann", catalog: .tmdb)
        model.status.language = "en"
        model.movies.loadingPage = 1
        ScreenSnapshot.check(Self.sized(model, size), "movies-loading")
        model.movies.loadingPage = nil
        model.movies.error = "Couldn't reach TMDb: it answered 503 (unavailable)"
        model.status.lastError = model.movies.error
        ScreenSnapshot.check(Self.sized(model, size), "movies-failed")
    }

    @Test(arguments: sizes) func moviesGenrePickerAndYear(_ size: (Int, Int)) {
        var model = Self.movies()
        model.movies.genrePicker = GenrePicker(names: ["Action", "Adventure", "Animation", "Comedy", "Crime", "Drama"], chosen: ["Drama"], anyGenre: false)
        ScreenSnapshot.check(Self.sized(model, size), "movies-genres")
        model.movies.genrePicker = nil
        model.movies.yearField = YearField(text: "199")
        ScreenSnapshot.check(Self.sized(model, size), "movies-year")
    }

    @Test(arguments: sizes) func series(_ size: (Int, Int)) {
        var model = Self.movies()
        model.tab = .series
        model.series.loaded = [
            Self.row(.tv, 1396, "Breaking Bad", "2008-01-20", ["Drama", "Crime"], 8.9, saved: true),
            Self.row(.tv, 1399, "Game of Thrones", "2011-04-17", ["Sci-Fi & Fantasy", "Drama", "Action & Adventure"], 8.5),
            Self.row(.tv, 66732, "Stranger Things", "2016-07-15", ["Drama", "Sci-Fi & Fantasy", "Mystery"], 8.6),
        ]
        model.series.pagesLoaded = 1
        model.series.totalPages = 3
        model.series.totalResults = 60
        model.series.loadingPage = 2
        ScreenSnapshot.check(Self.sized(model, size), "series")
    }

    @Test(arguments: sizes) func search(_ size: (Int, Int)) {
        var model = SearchViewTests.searched(editing: false)
        ScreenSnapshot.check(Self.sized(model, size), "search")
        model.search.cursor = ListCursor(position: 0)
        ScreenSnapshot.check(Self.sized(Self.withPreview(model), size), "search-title")
        model.search.error = "Couldn't reach TMDb: it answered 503 (unavailable)"
        ScreenSnapshot.check(Self.sized(model, size), "search-failed")
        model.search.error = nil
        model.search.results = []
        model.search.resultsText = "zzzz"
        ScreenSnapshot.check(Self.sized(model, size), "search-nothing")
        model.search.text = ""
        model.search.defaultPerson = PersonPage(
            id: 71580, name: "Benedict Cumberbatch", facts: "known for Acting · born 1976-07-19 in London",
            credits: [
                .init(row: TitleRow(key: try! MediaKey(.tv, 19885), title: "Sherlock", year: 2010, date: "2010-07-25", saved: true), role: "Sherlock Holmes (15 episodes)"),
                .init(row: TitleRow(key: try! MediaKey(.movie, 205596), title: "The Imitation Game", year: 2014, date: "2014-11-14"), role: "Alan Turing"),
            ])
        ScreenSnapshot.check(Self.sized(model, size), "search-default-person")
    }

    @Test(arguments: sizes) func saved(_ size: (Int, Int)) {
        var model = SavedUpdateTests.loaded()
        model.status.language = "en"
        ScreenSnapshot.check(Self.sized(model, size), "saved")
        model.saved.showsHistory = true
        ScreenSnapshot.check(Self.sized(model, size), "saved-history")
        model.saved.showsHistory = false
        var picking = model
        picking.saved.genrePicker = GenrePicker(names: model.saved.genres, chosen: ["Drama"], anyGenre: true)
        picking.saved.genrePicker?.cursor = 1
        ScreenSnapshot.check(Self.sized(picking, size), "saved-genres")
        model.saved.inFlight = SavedRequest()
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [], total: 0, language: "en", account: "ann"))).0
        #expect(model.saved.rows.isEmpty)
        ScreenSnapshot.check(Self.sized(model, size), "saved-empty")
    }

    @Test(arguments: sizes) func settings(_ size: (Int, Int)) {
        var model = SettingsUpdateTests.loaded()
        model.status.language = "en"
        ScreenSnapshot.check(Self.sized(model, size), "settings")
        let language = AppUpdateTests.type(model, .character("j"), .character("j"), .enter).0
        ScreenSnapshot.check(Self.sized(language, size), "settings-language")
        let account = AppUpdateTests.type(model, .character("j"), .character("j"), .character("j"), .enter).0
        ScreenSnapshot.check(Self.sized(account, size), "settings-account")
    }

    @Test(arguments: sizes) func detailsAndPerson(_ size: (Int, Int)) {
        var model = Self.movies()
        model.screens = [.details(SearchViewTests.matrixDetails())]
        ScreenSnapshot.check(Self.sized(model, size), "details")
        var failed = DetailsScreen(key: try! MediaKey(.movie, 603), title: "The Matrix")
        failed.loading = false
        failed.error = "Couldn't reach TMDb: it answered 503 (unavailable)"
        model.screens = [.details(failed)]
        ScreenSnapshot.check(Self.sized(model, size), "details-failed")
        var person = PersonScreen(id: 6384, name: "Keanu Reeves")
        person.loading = false
        person.page = PersonPage(
            id: 6384, name: "Keanu Reeves", facts: "known for Acting · born 1964-09-02 in Beirut, Lebanon",
            credits: [
                .init(row: TitleRow(key: try! MediaKey(.movie, 603), title: "The Matrix", year: 1999, date: "1999-03-30", saved: true), role: "Neo"),
                .init(row: TitleRow(key: try! MediaKey(.movie, 245891), title: "John Wick", year: 2014, date: "2014-10-22"), role: "John Wick"),
            ])
        model.screens = [.details(SearchViewTests.matrixDetails()), .person(person)]
        ScreenSnapshot.check(Self.sized(model, size), "person")
    }

    @Test(arguments: sizes) func help(_ size: (Int, Int)) {
        var model = Self.movies()
        model.showsHelp = true
        ScreenSnapshot.check(Self.sized(model, size), "help")
    }
}

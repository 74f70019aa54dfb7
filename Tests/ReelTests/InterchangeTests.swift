import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// Other apps' list formats: the CSV reader, each format's reader on realistic samples, every
/// error with the line it names, format detection, and the Letterboxd writer read back.
@Suite struct InterchangeTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The message of the error `body` throws, or a recorded issue.
    static func message(_ body: () throws(InterchangeError) -> some Any) -> String {
        do {
            _ = try body()
            Issue.record("no error thrown")
            return ""
        } catch {
            return error.description
        }
    }

    static func micros(_ iso: String) -> Int64 { InterchangeDate.parse(iso)! }

    // MARK: - CSV

    @Test func aTableHasItsHeaderAndRowsWithTheirLines() throws {
        let table = try CSVTable(parsing: Self.bytes("a,b,c\n1,2,3\n\n4,,6\n"))
        #expect(table.header == ["a", "b", "c"])
        #expect(table.headerLine == 1)
        #expect(table.rows == [CSVTable.Row(line: 2, fields: ["1", "2", "3"]), CSVTable.Row(line: 4, fields: ["4", "", "6"])])
        #expect(table.column("B") == 1)
        #expect(table.column("d") == nil)
    }

    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let text = "Name,Note\n\"Crouching Tiger, Hidden Dragon\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\r\nlast,\"a\r\nb\"\n"
        let table = try CSVTable(parsing: Self.bytes(text))
        #expect(table.rows.map(\.fields) == [["Crouching Tiger, Hidden Dragon", "say \"hi\""], ["two\nlines", "x"], ["last", "a\r\nb"]])
        // The second row starts on line 3 and its quoted line break makes the third start on line 5.
        #expect(table.rows.map(\.line) == [2, 3, 5])
    }

    @Test func aByteOrderMarkIsDroppedAndCRLFEndsRows() throws {
        let table = try CSVTable(parsing: [0xEF, 0xBB, 0xBF] + Self.bytes("Name,Year\r\nHeat,1995\r\nAlien,1979\r\n"))
        #expect(table.header == ["Name", "Year"])
        #expect(table.rows.map(\.fields) == [["Heat", "1995"], ["Alien", "1979"]])
        #expect(table.rows.map(\.line) == [2, 3])
    }

    @Test func loneCarriageReturnsEndRowsAndTheLastRowNeedsNoLineBreak() throws {
        let table = try CSVTable(parsing: Self.bytes("a,b\r1,2\r3,4"))
        #expect(table.rows == [CSVTable.Row(line: 2, fields: ["1", "2"]), CSVTable.Row(line: 3, fields: ["3", "4"])])
    }

    @Test func spacesAroundAQuotedFieldAreDroppedButKeptInAnUnquotedOne() throws {
        let table = try CSVTable(parsing: Self.bytes("a,b\n \"x, y\" , z \n"))
        #expect(table.rows[0].fields == ["x, y", " z "])
    }

    @Test func columnsMatchIgnoringCaseSpacesAndPunctuation() throws {
        let table = try CSVTable(parsing: Self.bytes("Title type,Num. Votes,LetterboxdURI\n"))
        #expect(table.column("Title Type") == 0)
        #expect(table.column("num votes") == 1)
        #expect(table.column("Letterboxd URI") == 2)
        #expect(table.rows.isEmpty)
    }

    @Test func anUnterminatedQuoteIsReportedWhereItOpened() {
        let text = "Date,Name,Year\n2023-01-01,Heat,1995\n2023-01-02,\"Alien,1979\n2023-01-03,Up,2009\n2023-01-04,Jaws,1975\n"
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes(text)) }
            == "line 3, column 12: unterminated quoted field (opened here)")
    }

    @Test func aQuoteInTheMiddleOfAnUnquotedFieldNamesItsLineAndColumn() {
        let text = "Name,Year\nHeat,1995\nThe \"Thing\",1982\n"
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes(text)) }
            == "line 3, column 5: a quote in the middle of an unquoted field (quote the whole field and double the quote)")
    }

    @Test func textAfterAClosingQuoteIsAnError() {
        let text = "Name,Year\n\"The \"Thing\",1982\n"
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes(text)) }
            == "line 2, column 7: text after a quoted field's closing quote (a quote inside a quoted field is written \"\")")
    }

    @Test func aRowWithAnotherNumberOfFieldsNamesItsLine() {
        let text = "Date,Name,Year\n2023-01-01,Heat,1995\n\"multi\nline\",Up,2009\n2023-01-04,Jaws\n"
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes(text)) }
            == "line 5: 2 fields, but the header has 3")
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes("a,b\n1,2,3\n")) }
            == "line 2: 3 fields, but the header has 2")
    }

    @Test func bytesThatAreNotUTF8NameTheirLineAndColumn() {
        // Latin-1 "é" (0xE9) where UTF-8 was expected, after a BOM (not counted as a column).
        let latin1 = [0xEF, 0xBB, 0xBF] + Self.bytes("Name,Year\nAmélie,2001\n") + Self.bytes("Caf") + [0xE9] + Self.bytes(",2000\n")
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: latin1) }
            == "line 3, column 4: not UTF-8 text (save the file as UTF-8)")
        // An overlong encoding and a truncated sequence at the end of the file.
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes("a\n") + [0xC0, 0x80]) }
            == "line 2, column 1: not UTF-8 text (save the file as UTF-8)")
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes("a\nxé") + [0xE2, 0x82]) }
            == "line 2, column 3: not UTF-8 text (save the file as UTF-8)")
    }

    @Test(arguments: ["", "\u{FEFF}", "\n\n", "\r\n  \r\n"])
    func anEmptyFileIsAnError(_ text: String) {
        #expect(Self.message { () throws(InterchangeError) in try CSVTable(parsing: Self.bytes(text)) } == "the file is empty")
    }

    @Test func missingColumnsAreNamed() throws {
        let table = try CSVTable(parsing: Self.bytes("Date,Film\n"))
        #expect(Self.message { () throws(InterchangeError) in try table.columns(["Name", "Year"], requiredBy: "a Letterboxd export") }
            == "line 1: the header has no Name and Year columns (a Letterboxd export has them)")
        #expect(Self.message { () throws(InterchangeError) in try table.columns(["Date", "Year"], requiredBy: "a Letterboxd export") }
            == "line 1: the header has no Year column (a Letterboxd export has it)")
        #expect(try table.columns(["film", "DATE"], requiredBy: "x") == [1, 0])
    }

    @Test func theHeaderAloneCanBeSniffed() {
        #expect(CSVTable.header(of: Self.bytes("\u{FEFF}Const,Title\ntt1,\"broken")) == ["Const", "Title"])
        #expect(CSVTable.header(of: Self.bytes("\"open")) == nil)
        #expect(CSVTable.header(of: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(CSVTable.header(of: []) == nil)
    }

    // MARK: - Dates

    @Test func datesAndDateTimesAsExportsWriteThem() {
        #expect(UTCTime.iso(Self.micros("2024-01-02T03:04:05.000Z")) == "2024-01-02T03:04:05.000000Z")
        #expect(UTCTime.iso(Self.micros("2024-01-02")) == "2024-01-02T00:00:00.000000Z")
        #expect(UTCTime.iso(Self.micros("2024-01-02 03:04:05")) == "2024-01-02T03:04:05.000000Z")
        #expect(UTCTime.iso(Self.micros("2024-01-02T03:04:05.123456789+02:00")) == "2024-01-02T01:04:05.123456Z")
        #expect(UTCTime.iso(Self.micros("2024-01-02T03:04-0130")) == "2024-01-02T04:34:00.000000Z")
        #expect(UTCTime.iso(Self.micros("Sun Jan 13 00:00:00 2013")) == "2013-01-13T00:00:00.000000Z")
        #expect(UTCTime.iso(Self.micros("1969-12-31T23:59:59.5Z")) == "1969-12-31T23:59:59.500000Z")
        #expect(Self.micros("1970-01-01") == 0)
        #expect(Self.micros("2024-02-29") == Self.micros("2024-03-01") - 86_400_000_000)
        let bad = ["2023-02-29", "2024-13-01", "2024-1-02", "02/01/2024", "2024-01-02T25:00:00Z", "2024-01-02T03:04:05.Z", "2024-01-02Z"]
        for bad in bad + ["", "2024-01-02T03:04:05Z junk", "Sun Jan 32 00:00:00 2013"] {
            #expect(InterchangeDate.parse(bad) == nil, "\(bad)")
        }
    }

    // MARK: - Letterboxd

    static let letterboxdWatchlist = """
        Date,Name,Year,Letterboxd URI
        2023-01-15,Fight Club,1999,https://boxd.it/2a1c
        2023-02-01,"Crouching Tiger, Hidden Dragon",2000,https://boxd.it/1Zs8
        2023-03-10,Untitled Jordan Peele Project,,https://boxd.it/wxYz

        """

    static let letterboxdDiary = """
        Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date
        2022-06-04,Heat,1995,https://boxd.it/2aXO/,4.5,,"crime, la",2022-06-03
        2022-06-12,"Amélie",2001,https://boxd.it/2aNm/,5,Yes,,2022-06-11

        """

    @Test func aLetterboxdWatchlistIsReadAsMoviesWithTheirDates() throws {
        let titles = try LetterboxdCSV.read(Self.bytes(Self.letterboxdWatchlist))
        #expect(
            titles == [
                ImportedTitle(location: .line(2), mediaType: .movie, title: "Fight Club", year: 1999, addedAt: Self.micros("2023-01-15")),
                ImportedTitle(
                    location: .line(3), mediaType: .movie, title: "Crouching Tiger, Hidden Dragon", year: 2000,
                    addedAt: Self.micros("2023-02-01")),
                ImportedTitle(
                    location: .line(4), mediaType: .movie, title: "Untitled Jordan Peele Project", year: nil,
                    addedAt: Self.micros("2023-03-10")),
            ])
        #expect(titles.map(\.label) == ["Fight Club (1999)", "Crouching Tiger, Hidden Dragon (2000)", "Untitled Jordan Peele Project"])
    }

    @Test func aLetterboxdDiaryAndRatingsAreReadToo() throws {
        let crlf = Self.letterboxdDiary.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        let diary = try LetterboxdCSV.read([0xEF, 0xBB, 0xBF] + Self.bytes(crlf))
        #expect(diary.map(\.label) == ["Heat (1995)", "Amélie (2001)"])
        #expect(diary.map(\.addedAt) == [Self.micros("2022-06-04"), Self.micros("2022-06-12")])
        let ratings = try LetterboxdCSV.read(
            Self.bytes("Date,Name,Year,Letterboxd URI,Rating\n2021-11-02,Dune,2021,https://boxd.it/kpXs,4\n"))
        #expect(ratings.map(\.label) == ["Dune (2021)"])
    }

    @Test func letterboxdErrorsNameTheirLine() {
        func read(_ text: String) -> String {
            Self.message { () throws(InterchangeError) in try LetterboxdCSV.read(Self.bytes(text)) }
        }
        #expect(read("Date,Name,Year\n2023-01-01,Heat,1995\n2023-01-02,Alien,19xx\n") == "line 3: Year '19xx' is not a year (four digits)")
        #expect(read("Date,Name,Year\n2023-01-01,,1995\n") == "line 2: Name is empty")
        #expect(read("Date,Name,Year\n15/01/2023,Heat,1995\n") == "line 2: Date '15/01/2023' is not a date (YYYY-MM-DD)")
        #expect(read("Date,Film,Year,Letterboxd URI\n") == "line 1: the header has no Name column (a Letterboxd export has it)")
        #expect(read("Date,Rating\n") == "line 1: the header has no Name and Year columns (a Letterboxd export has them)")
        #expect(read("") == "the file is empty")
    }

    @Test func letterboxdsImportFormatIsReadByIdOrTitle() throws {
        let text = """
            LetterboxdURI,tmdbID,imdbID,Title,Year,WatchedDate,Rating10
            ,550,,Fight Club,1999,2024-05-01,9
            ,,tt0133093,,,,
            ,,,"Crouching Tiger, Hidden Dragon",2000,,

            """
        let titles = try LetterboxdCSV.read(Self.bytes(text))
        #expect(
            titles == [
                ImportedTitle(
                    location: .line(2), mediaType: .movie, tmdbID: 550, title: "Fight Club", year: 1999,
                    addedAt: Self.micros("2024-05-01")),
                ImportedTitle(location: .line(3), mediaType: .movie, imdbID: "tt0133093"),
                ImportedTitle(location: .line(4), mediaType: .movie, title: "Crouching Tiger, Hidden Dragon", year: 2000),
            ])
        #expect(titles.map(\.label) == ["Fight Club (1999)", "tt0133093", "Crouching Tiger, Hidden Dragon (2000)"])
    }

    @Test func letterboxdImportFormatErrorsNameTheirLine() {
        func read(_ text: String) -> String {
            Self.message { () throws(InterchangeError) in try LetterboxdCSV.read(Self.bytes(text)) }
        }
        #expect(read("tmdbID,Title\n550,Fight Club\nabc,Heat\n") == "line 3: tmdbID 'abc' is not a TMDb id (a positive number)")
        #expect(read("tmdbID,Title\n0,Fight Club\n") == "line 2: tmdbID '0' is not a TMDb id (a positive number)")
        #expect(read("imdbID,Title\nnm0000093,Brad Pitt\n") == "line 2: imdbID 'nm0000093' is not an IMDb title id (tt followed by digits)")
        #expect(read("tmdbID,imdbID,Title,Year\n550,,Fight Club,1999\n,,,1995\n") == "line 3: no tmdbID, imdbID or Title")
        #expect(read("Title,WatchedDate\nHeat,yesterday\n") == "line 2: WatchedDate 'yesterday' is not a date (YYYY-MM-DD)")
    }

    // MARK: - Letterboxd writer

    @Test func theLetterboxdWriterWritesWhatItsImporterTakes() {
        let rows = [
            LetterboxdCSV.Row(tmdbID: 550, title: "Fight Club", year: 1999),
            LetterboxdCSV.Row(tmdbID: 146, title: "Crouching Tiger, Hidden Dragon", year: 2000),
            LetterboxdCSV.Row(tmdbID: 12345, title: "The \"Quoted\" One", year: nil),
        ]
        #expect(
            String(decoding: LetterboxdCSV.write(rows), as: UTF8.self) == """
                tmdbID,Title,Year
                550,Fight Club,1999
                146,"Crouching Tiger, Hidden Dragon",2000
                12345,"The ""Quoted"" One",

                """)
        #expect(LetterboxdCSV.write([]) == Self.bytes("tmdbID,Title,Year\n"))
    }

    @Test func whatTheLetterboxdWriterWritesReadsBackEqual() throws {
        let rows = [
            LetterboxdCSV.Row(tmdbID: 550, title: "Fight Club", year: 1999),
            LetterboxdCSV.Row(tmdbID: 146, title: "Crouching Tiger, Hidden Dragon", year: 2000),
            LetterboxdCSV.Row(tmdbID: 12345, title: "The \"Quoted\" One", year: nil),
            LetterboxdCSV.Row(tmdbID: 2, title: "Two\nLines, and \"more\"", year: 2024),
            LetterboxdCSV.Row(tmdbID: 194, title: "Le Fabuleux Destin d'Amélie Poulain", year: 2001),
            LetterboxdCSV.Row(tmdbID: 670, title: "올드보이", year: 2003),
        ]
        let bytes = LetterboxdCSV.write(rows)
        #expect(InterchangeFormat.detect(bytes) == .letterboxd)
        let read = try LetterboxdCSV.read(bytes)
        #expect(read.map { LetterboxdCSV.Row(tmdbID: $0.tmdbID!, title: $0.title!, year: $0.year) } == rows)
        #expect(read.allSatisfy { $0.mediaType == .movie && $0.imdbID == nil && $0.addedAt == nil })
        // The row after the two-line title starts a line later.
        #expect(read.map(\.location.number) == [2, 3, 4, 5, 7, 8])
    }

    @Test func cellsASpreadsheetWouldRunAsFormulasAreWrittenAsText() {
        // OWASP's CSV injection rule: a cell starting with =, +, -, @, a tab or a CR gets a ' in
        // front and is quoted.
        let rows = [
            LetterboxdCSV.Row(tmdbID: 1, title: "=HYPERLINK(\"https://evil.example\",\"Fight Club\")", year: 1999),
            LetterboxdCSV.Row(tmdbID: 2, title: "+1 555", year: nil),
            LetterboxdCSV.Row(tmdbID: 3, title: "-2+3", year: nil),
            LetterboxdCSV.Row(tmdbID: 4, title: "@SUM(A1:A9)", year: nil),
            LetterboxdCSV.Row(tmdbID: 5, title: "\tcmd", year: nil),
            LetterboxdCSV.Row(tmdbID: 6, title: "\rcmd", year: nil),
            LetterboxdCSV.Row(tmdbID: 7, title: "'=already quoted", year: nil),
            LetterboxdCSV.Row(tmdbID: 8, title: "'Salem's Lot", year: 1979),
            LetterboxdCSV.Row(tmdbID: 9, title: "Mid=dle - not a formula", year: nil),
        ]
        #expect(
            String(decoding: LetterboxdCSV.write(rows), as: UTF8.self) == """
                tmdbID,Title,Year
                1,"'=HYPERLINK(""https://evil.example"",""Fight Club"")",1999
                2,"'+1 555",
                3,"'-2+3",
                4,"'@SUM(A1:A9)",
                5,"'\tcmd",
                6,"'\rcmd",
                7,"''=already quoted",
                8,'Salem's Lot,1979
                9,Mid=dle - not a formula,

                """)
    }

    @Test func theFormulaGuardIsTakenOffWhenReadBackSoTitlesRoundTrip() throws {
        let titles = [
            "=HYPERLINK(\"https://evil.example\",\"x\")", "+1", "-1", "@me", "\t=tab", "'=one quote", "''-two quotes", "'Salem's Lot",
            "'", "''", "=", "Plain",
        ]
        let rows = titles.enumerated().map { LetterboxdCSV.Row(tmdbID: Int64($0.offset + 1), title: $0.element, year: nil) }
        let read = try LetterboxdCSV.read(LetterboxdCSV.write(rows))
        #expect(read.map(\.title) == titles)
        // A ' the file's author wrote before a formula character is taken as the guard.
        #expect(try LetterboxdCSV.read(Self.bytes("tmdbID,Title\n1,'=x\n2,'x\n")).map(\.title) == ["=x", "'x"])
    }

    // MARK: - IMDb

    static let imdbList = """
        Position,Const,Created,Modified,Description,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,\
        Release Date,Directors,Your Rating,Date Rated
        1,tt0137523,2023-05-01,2023-05-01,,Fight Club,https://www.imdb.com/title/tt0137523/,Movie,8.8,139,1999,Drama,2412345,\
        1999-09-10,David Fincher,,
        2,tt0903747,2023-05-02,2023-05-03,"Watch with Sam, in order",Breaking Bad,https://www.imdb.com/title/tt0903747/,TV Series,\
        9.5,49,2008,"Crime, Drama, Thriller",2198765,2008-01-20,,10,2023-06-01
        3,tt0959621,2023-05-04,2023-05-04,,Pilot,https://www.imdb.com/title/tt0959621/,TV Episode,9.0,58,2008,"Crime, Drama, \
        Thriller",45678,2008-01-20,Vince Gilligan,,
        4,tt2401256,2023-05-05,2023-05-05,,The Night Of,https://www.imdb.com/title/tt2401256/,TV Mini Series,8.5,,2016,"Crime, \
        Drama",123456,2016-07-10,,,
        5,tt0108052,2023-05-06,2023-05-06,,Schindler's List,https://www.imdb.com/title/tt0108052/,Movie,9.0,195,1993,\
        "Biography, Drama, History",1456789,1993-11-30,Steven Spielberg,,
        6,tt0092067,2023-05-07,2023-05-07,,Laputa: Castle in the Sky,https://www.imdb.com/title/tt0092067/,Video Game,,,,,,,,,

        """

    @Test func anIMDbListIsReadWithMediaTypesFromTitleType() throws {
        let titles = try IMDbCSV.read(Self.bytes(Self.imdbList))
        #expect(titles.map(\.imdbID) == ["tt0137523", "tt0903747", "tt0959621", "tt2401256", "tt0108052", "tt0092067"])
        #expect(titles.map(\.mediaType) == [.movie, .tv, nil, .tv, .movie, nil])
        #expect(titles.map(\.kind) == ["Movie", "TV Series", "TV Episode", "TV Mini Series", "Movie", "Video Game"])
        #expect(titles.map(\.label) == [
            "Fight Club (1999)", "Breaking Bad (2008)", "Pilot (2008)", "The Night Of (2016)", "Schindler's List (1993)",
            "Laputa: Castle in the Sky",
        ])
        #expect(titles.map(\.location) == (2...7).map { .line($0) })
        #expect(titles[0].addedAt == Self.micros("2023-05-01"))
        #expect(titles[5].addedAt == Self.micros("2023-05-07"))
        #expect(titles.allSatisfy { $0.tmdbID == nil })
    }

    @Test func anOlderIMDbExportIsReadToo() throws {
        let text = """
            "position","const","created","modified","description","Title","Title type","Directors","You rated","IMDb Rating",\
            "Runtime (mins)","Year","Genres","Num. Votes","Release Date (month/day/year)","URL"
            "1","tt0133093","Sun Jan 13 00:00:00 2013","Sun Jan 13 00:00:00 2013","","The Matrix","Feature Film",\
            "Lana Wachowski, Lilly Wachowski","","8.7","136","1999","action, sci_fi","1234567","1999-03-31",\
            "http://www.imdb.com/title/tt0133093/"
            "2","tt0944947","Mon Feb  4 00:00:00 2013","Mon Feb  4 00:00:00 2013","","Game of Thrones","TV Series","","","9.2",\
            "57","2011","adventure, drama","2000000","2011-04-17","http://www.imdb.com/title/tt0944947/"

            """
        let titles = try IMDbCSV.read(Self.bytes(text))
        #expect(titles.map(\.label) == ["The Matrix (1999)", "Game of Thrones (2011)"])
        #expect(titles.map(\.mediaType) == [.movie, .tv])
        #expect(titles.map(\.addedAt) == [Self.micros("2013-01-13"), Self.micros("2013-02-04")])
    }

    @Test func imdbTitleTypesInBothSpellings() {
        for movie in ["Movie", "movie", "Short", "TV Movie", "tvMovie", "Video", "Feature Film"] {
            #expect(IMDbCSV.mediaType(ofTitleType: movie) == .movie, "\(movie)")
        }
        for series in ["TV Series", "tvSeries", "TV Mini Series", "tvMiniSeries", "Mini-Series"] {
            #expect(IMDbCSV.mediaType(ofTitleType: series) == .tv, "\(series)")
        }
        for other in ["TV Episode", "tvEpisode", "Video Game", "Podcast Series", "TV Special", ""] {
            #expect(IMDbCSV.mediaType(ofTitleType: other) == nil, "\(other)")
        }
    }

    @Test func anOriginalTitleColumnStandsInForAMissingTitle() throws {
        let titles = try IMDbCSV.read(Self.bytes("const,Original Title,Title Type\ntt0211915,Le Fabuleux Destin d'Amélie Poulain,movie\n"))
        #expect(titles.map(\.label) == ["Le Fabuleux Destin d'Amélie Poulain"])
        #expect(titles.map(\.mediaType) == [.movie])
    }

    @Test func anIMDbFileWithoutTitleTypeLeavesTheMediaTypeOpen() throws {
        let titles = try IMDbCSV.read(Self.bytes("Const,Title,Year\ntt0137523,Fight Club,1999\n"))
        #expect(titles == [ImportedTitle(location: .line(2), mediaType: nil, imdbID: "tt0137523", title: "Fight Club", year: 1999)])
    }

    @Test func imdbErrorsNameTheirLine() {
        func read(_ text: String) -> String {
            Self.message { () throws(InterchangeError) in try IMDbCSV.read(Self.bytes(text)) }
        }
        let header = "Position,Const,Created,Title,Title Type,Year\n"
        #expect(read(header + "1,tt0137523,2023-05-01,Fight Club,Movie,1999\n2,nm0000093,2023-05-01,Brad Pitt,,\n")
            == "line 3: Const 'nm0000093' is not an IMDb title id (tt followed by digits)")
        #expect(read(header + "1,,2023-05-01,Fight Club,Movie,1999\n") == "line 2: Const is empty")
        #expect(read(header + "1,tt0137523,May 1st,Fight Club,Movie,1999\n") == "line 2: Created 'May 1st' is not a date (YYYY-MM-DD)")
        #expect(read("Position,Created,Title\n") == "line 1: the header has no Const column (an IMDb list export has it)")
        #expect(read("Position,Const\n") == "line 1: the header has no Title column (an IMDb list export has it)")
        #expect(read(header + "1,tt0137523,2023-05-01,\"Fight Club,Movie,1999\n")
            == "line 2, column 24: unterminated quoted field (opened here)")
    }

    // MARK: - Trakt

    static let traktWatchlist = """
        [
          {"rank":1,"id":101,"listed_at":"2024-01-02T03:04:05.000Z","notes":null,"type":"movie",
           "movie":{"title":"Fight Club","year":1999,"ids":{"trakt":432,"slug":"fight-club-1999","imdb":"tt0137523","tmdb":550}}},
          {"rank":2,"id":102,"listed_at":"2024-02-03T04:05:06.000Z","notes":"with Sam","type":"show",
           "show":{"title":"Breaking Bad","year":2008,"ids":{"trakt":1388,"slug":"breaking-bad","tvdb":81189,"imdb":"tt0903747",
           "tmdb":1396}}},
          {"rank":3,"id":103,"listed_at":"2024-03-04T05:06:07.000Z","notes":null,"type":"season",
           "season":{"number":2,"ids":{"trakt":3951,"tvdb":171641,"tmdb":3573}},
           "show":{"title":"Breaking Bad","year":2008,"ids":{"trakt":1388,"slug":"breaking-bad","imdb":"tt0903747","tmdb":1396}}},
          {"rank":4,"id":104,"listed_at":"2024-04-05T06:07:08.000Z","notes":null,"type":"episode",
           "episode":{"season":1,"number":1,"title":"Pilot","ids":{"trakt":73482,"tmdb":62085,"imdb":"tt0959621"}},
           "show":{"title":"Breaking Bad","year":2008,"ids":{"trakt":1388,"imdb":"tt0903747","tmdb":1396}}},
          {"rank":5,"id":105,"listed_at":"2024-05-06T07:08:09.000Z","notes":null,"type":"movie",
           "movie":{"title":"Untitled","year":null,"ids":{"trakt":999,"slug":"untitled","imdb":null,"tmdb":null}}}
        ]
        """

    @Test func aTraktWatchlistIsReadWithPositionsAndDates() throws {
        let titles = try TraktJSON.read(Self.bytes(Self.traktWatchlist))
        #expect(
            titles == [
                ImportedTitle(
                    location: .entry(1), mediaType: .movie, kind: "movie", tmdbID: 550, imdbID: "tt0137523", title: "Fight Club",
                    year: 1999, addedAt: Self.micros("2024-01-02T03:04:05Z")),
                ImportedTitle(
                    location: .entry(2), mediaType: .tv, kind: "show", tmdbID: 1396, imdbID: "tt0903747", title: "Breaking Bad",
                    year: 2008, addedAt: Self.micros("2024-02-03T04:05:06Z")),
                ImportedTitle(
                    location: .entry(3), mediaType: nil, kind: "season", title: "Breaking Bad S02", year: 2008,
                    addedAt: Self.micros("2024-03-04T05:06:07Z")),
                ImportedTitle(
                    location: .entry(4), mediaType: nil, kind: "episode", title: "Breaking Bad S01E01", year: 2008,
                    addedAt: Self.micros("2024-04-05T06:07:08Z")),
                ImportedTitle(
                    location: .entry(5), mediaType: .movie, kind: "movie", title: "Untitled", addedAt: Self.micros("2024-05-06T07:08:09Z")),
            ])
        #expect(titles.map(\.location.description) == ["entry 1", "entry 2", "entry 3", "entry 4", "entry 5"])
    }

    @Test func traktEntriesWithoutATypeOrOfOtherKinds() throws {
        let text = """
            [{"plays":3,"last_watched_at":"2023-09-01T20:00:00.000Z","movie":{"title":"Heat","year":1995,"ids":{"tmdb":949}}},
             {"type":"person","listed_at":"2024-01-01T00:00:00.000Z","person":{"name":"Michael Mann","ids":{"tmdb":638}}},
             {"type":"list","listed_at":"2024-01-01T00:00:00.000Z","list":{"name":"Noir"}},
             {"type":"movie","movie":{"ids":{}}}]
            """
        let titles = try TraktJSON.read([0xEF, 0xBB, 0xBF] + Self.bytes(text))
        #expect(titles.map(\.mediaType) == [.movie, nil, nil, .movie])
        #expect(titles[0].tmdbID == 949)
        #expect(titles[0].addedAt == Self.micros("2023-09-01T20:00:00Z"))
        #expect(titles.map(\.label) == ["Heat (1995)", "Michael Mann", "entry 3", "entry 4"])
        #expect(titles.map(\.kind) == ["movie", "person", "list", "movie"])
        #expect(try TraktJSON.read(Self.bytes("[]")).isEmpty)
    }

    @Test func traktErrorsNameTheEntry() {
        func read(_ text: String) -> String {
            Self.message { () throws(InterchangeError) in try TraktJSON.read(Self.bytes(text)) }
        }
        #expect(read(#"{"type":"movie"}"#) == "not a Trakt list: the file holds an object, not a JSON array of entries")
        #expect(read(#"[{"type":"movie","movie":{"title":"A"}}, "Heat"]"#)
            == #"entry 2 (index 1): a string instead of an object with a "type""#)
        #expect(read(#"[{"type":"show","movie":{"title":"A"}}]"#) == #"entry 1 (index 0): type "show" but no "show" object"#)
        #expect(read(#"[{"rank":1}]"#) == #"entry 1 (index 0): no "type", and no "movie" or "show" object"#)
        #expect(read(#"[{"type":7}]"#) == #"entry 1 (index 0): "type" is a number, not a string"#)
        #expect(read(#"[{"type":"movie","listed_at":"last week","movie":{}}]"#)
            == #"entry 1 (index 0): "listed_at" is not an ISO 8601 date-time: "last week""#)
        #expect(read("[\n  {\"type\": \"movie\",\n   \"movie\": {\"title\": \"Heat\"\n  }\n")
            == "line 5, column 1: invalid JSON: unexpected end")
        #expect(read("[\n  {\"type\": \"movie\" \"movie\": {}}]") == "line 2, column 20: invalid JSON: expected ',' or '}'")
        #expect(read(" \n ") == "the file is empty")
    }

    /// Ids are checked as `fav add` checks an id: one out of TMDb's range, negative, fractional or
    /// carrying other characters is an error naming the entry (it used to be dropped silently and
    /// the title matched by name instead); a missing one (absent, null, empty) is left out.
    @Test func traktIdsThatAreNotIdsAreRefusedNamingTheEntry() throws {
        func read(_ ids: String) -> String {
            Self.message { () throws(InterchangeError) in
                try TraktJSON.read(Self.bytes(#"[{"type":"movie","movie":{"title":"Heat","ids":{"tmdb":949}}},{"type":"movie","movie":{"title":"A","ids":"# + ids + "}}]"))
            }
        }
        #expect(read(#"{"tmdb":2147483648}"#) == "entry 2 (index 1): ids.tmdb '2147483648' is not a TMDb id (a positive whole number up to 2147483647)")
        #expect(read(#"{"tmdb":-5}"#).hasPrefix("entry 2 (index 1): ids.tmdb '-5' is not a TMDb id"))
        #expect(read(#"{"tmdb":0}"#).hasPrefix("entry 2 (index 1): ids.tmdb '0' is not a TMDb id"))
        #expect(read(#"{"tmdb":"550\u001b[31m"}"#) == #"entry 2 (index 1): ids.tmdb '550\u{1b}[31m' is not a TMDb id (a positive whole number up to 2147483647)"#)
        #expect(read(#"{"tmdb":{"id":5}}"#).hasPrefix("entry 2 (index 1): ids.tmdb"))
        #expect(read(#"{"imdb":"tt123\u0007"}"#) == #"entry 2 (index 1): ids.imdb 'tt123\u{7}' is not an IMDb title id (tt followed by digits)"#)
        #expect(read(#"{"imdb":42}"#).hasPrefix("entry 2 (index 1): ids.imdb '42' is not an IMDb title id"))
        for missing in [#"{}"#, #"{"tmdb":null,"imdb":null}"#, #"{"tmdb":"","imdb":""}"#] {
            let titles = try TraktJSON.read(Self.bytes(#"[{"type":"movie","movie":{"title":"A","ids":"# + missing + "}}]"))
            #expect(titles.first?.tmdbID == nil && titles.first?.imdbID == nil, "\(missing)")
        }
        let strings = try TraktJSON.read(Self.bytes(#"[{"type":"movie","movie":{"title":"A","ids":{"tmdb":"550","imdb":"tt0137523"}}}]"#))
        #expect(strings.first?.tmdbID == 550 && strings.first?.imdbID == "tt0137523")
    }

    // MARK: - Detection

    static let reelExport = #"{"format":"reel-export/1","account":{"handle":"ann"},"history":[]}"#

    @Test func eachFormatIsDetected() {
        #expect(InterchangeFormat.detect(Self.bytes(Self.reelExport)) == .reelExport)
        #expect(InterchangeFormat.detect(Self.bytes("\n  " + Self.reelExport)) == .reelExport)
        #expect(InterchangeFormat.detect(Self.bytes(Self.traktWatchlist)) == .trakt)
        #expect(InterchangeFormat.detect([0xEF, 0xBB, 0xBF] + Self.bytes("  []")) == .trakt)
        #expect(InterchangeFormat.detect(Self.bytes(Self.imdbList)) == .imdb)
        #expect(InterchangeFormat.detect(Self.bytes("const,Title\n")) == .imdb)
        #expect(InterchangeFormat.detect(Self.bytes(Self.letterboxdWatchlist)) == .letterboxd)
        #expect(InterchangeFormat.detect([0xEF, 0xBB, 0xBF] + Self.bytes(Self.letterboxdDiary)) == .letterboxd)
        #expect(InterchangeFormat.detect(Self.bytes("Name,Year\n")) == .letterboxd)
        #expect(InterchangeFormat.detect(Self.bytes("Letterboxd URI,Rating\n")) == .letterboxd)
        #expect(InterchangeFormat.detect(Self.bytes("imdbID,Title\n")) == .letterboxd)
        #expect(InterchangeFormat.detect(Self.bytes("Title,Year,tmdbID\n")) == .letterboxd)
        // A file broken further down is still detected, so reading it reports the line.
        #expect(InterchangeFormat.detect(Self.bytes("Date,Name,Year\n2023-01-01,\"Heat,1995\n")) == .letterboxd)
    }

    @Test func foreignFilesAreNotDetected() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        #expect(InterchangeFormat.detect(png) == nil)
        #expect(InterchangeFormat.detect([]) == nil)
        #expect(InterchangeFormat.detect(Self.bytes(" \n\t\r\n")) == nil)
        #expect(InterchangeFormat.detect([0xEF, 0xBB, 0xBF]) == nil)
        #expect(InterchangeFormat.detect(Self.bytes("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\nSed do eiusmod.\n")) == nil)
        #expect(InterchangeFormat.detect(Self.bytes(#"{"format":"something-else/2"}"#)) == nil)
        #expect(InterchangeFormat.detect(Self.bytes(#"{"results":[]}"#)) == nil)
        #expect(InterchangeFormat.detect(Self.bytes("Title,Year,Director\nHeat,1995,Michael Mann\n")) == nil)
        #expect(InterchangeFormat.detect(Self.bytes("Name\nHeat\n")) == nil)
        var random = SplitMix64(seed: 7)
        #expect(InterchangeFormat.detect((0..<512).map { _ in UInt8(truncatingIfNeeded: random.next()) }) == nil)
    }

    @Test func formatNamesForTheFormatOption() {
        #expect(InterchangeFormat(name: "reel") == .reelExport)
        #expect(InterchangeFormat(name: "letterboxd") == .letterboxd)
        #expect(InterchangeFormat(name: "IMDb") == .imdb)
        #expect(InterchangeFormat(name: "trakt") == .trakt)
        #expect(InterchangeFormat(name: "csv") == nil)
        #expect(InterchangeFormat.names == ["reel", "letterboxd", "imdb", "trakt"])
        #expect(InterchangeFormat.allCases.allSatisfy { InterchangeFormat(name: $0.name) == $0 })
    }

    @Test func readTitlesDispatchesOnTheFormat() throws {
        #expect(try InterchangeFormat.letterboxd.readTitles(Self.bytes(Self.letterboxdWatchlist))?.count == 3)
        #expect(try InterchangeFormat.imdb.readTitles(Self.bytes(Self.imdbList))?.count == 6)
        #expect(try InterchangeFormat.trakt.readTitles(Self.bytes(Self.traktWatchlist))?.count == 5)
        #expect(try InterchangeFormat.reelExport.readTitles(Self.bytes(Self.reelExport)) == nil)
        #expect(Self.message { () throws(InterchangeError) in try InterchangeFormat.imdb.readTitles(Self.bytes(Self.letterboxdWatchlist)) }
            == "line 1: the header has no Const and Title columns (an IMDb list export has them)")
    }

    // MARK: - Labels and messages

    @Test func labelsFallBackFromTitleToIdsToTheLocation() {
        #expect(ImportedTitle(location: .line(4), mediaType: .movie, imdbID: "tt0137523").label == "tt0137523")
        #expect(ImportedTitle(location: .line(4), mediaType: .movie, tmdbID: 550).label == "TMDb 550")
        #expect(ImportedTitle(location: .line(4), mediaType: .movie).label == "line 4")
        #expect(ImportedTitle(location: .entry(2), mediaType: nil, title: "Heat").label == "Heat")
    }

    @Test func messagesStayOnOneLine() {
        let value = "19\n99\u{7}" + String(repeating: "x", count: 80)
        let error = InterchangeError.invalidField(line: 3, column: "Year", value: value, problem: "is odd")
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix(#"line 3: Year '19\n99\u{7}xxx"#))
        #expect(error.description.hasSuffix("xx…' is odd"))
    }
}

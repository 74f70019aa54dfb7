import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `AccountMoveTests`, continued: files that must be refused (tampered, truncated, foreign, a newer
/// version, broken CSVs and JSON), and other apps' lists (Letterboxd, IMDb, Trakt) saved into an
/// account with the dates they carry.
extension AccountMoveTests {
    // MARK: - Bad files

    typealias BadFile = DamagedExports.BadFile
    typealias SubtleFile = DamagedExports.SubtleFile

    /// Every bad file is refused in process through `Application` in every way an import can be
    /// asked for (ReelTests, ImportRefusalTests); these go through `reel` for the one line on
    /// stderr and the exit codes: a damaged export (65), a damaged list (65), a file of no known
    /// format (64), no file (66), a list named with `--format`.
    static let badFilesThroughTheBinary: [BadFile] = [.changedHash, .truncated, .brokenQuoting, .png, .missing, .traktObjectNamed]

    @Test(arguments: badFilesThroughTheBinary)
    func aBadFileIsRefusedInOneLineNamingWhereAndNothingIsWritten(_ bad: BadFile) async throws {
        let ledger = try await Self.makeLedger()
        let good = try await String(contentsOfFile: try Self.export(ledger), encoding: .utf8)
        let file = temporaryDirectory("bad") + "/\(bad).\(bad.fileExtension)"
        let (bytes, importNaming, verifyNaming) = DamagedExports.make(bad, from: good)
        if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: file)) }
        let before = try await Self.snapshot(ledger)

        for extra in [["--as", "newcomer"], ["--as", "newcomer", "--json"], ["--as", "newcomer", "--dry-run"], ["--user", "newcomer"]] {
            try await Self.refuses(
                ledger, ["account", "import", file] + bad.importArguments + extra, status: bad.importStatus, file: file, naming: importNaming,
                "\(bad): import \(extra)")
        }
        // Into the existing account (or over its handle): refused for the file, not for the handle.
        try await Self.refuses(
            ledger, ["account", "import", file] + bad.importArguments, user: Self.handle, status: bad.importStatus, file: file, naming: importNaming,
            "\(bad): as mover")
        await #expect(try Self.snapshot(ledger) == before, "\(bad): something was written")
        try await Self.expectFree("newcomer", in: ledger, "\(bad)")
        await #expect(try Self.saved(ledger, Self.handle).map(\.key) == Self.savedKeys, "\(bad)")

        // Into a data directory without a ledger: refused the same way, and nothing is created.
        let empty = Ledger()
        try await Self.refuses(empty, ["account", "import", file] + bad.importArguments, status: bad.importStatus, file: file, naming: importNaming, "\(bad): empty")
        #expect(try Self.files(under: empty.dir) == [], "\(bad): a refused import created files")

        if let status = bad.verifyStatus {
            try await Self.refuses(ledger, ["account", "verify-export", file], status: status, file: file, naming: verifyNaming, "\(bad): verify-export")
            let json = try await Self.refuses(
                ledger, ["account", "verify-export", file, "--json"], status: status, file: file, naming: verifyNaming, json: true, "\(bad): verify-export --json")
            if status == 65 {
                let checked = try Harness.validate(json.stdout, against: "cli/account-verify-export.schema.json")
                #expect(checked.status == 0, "\(bad): \(json.stdout) \(checked.stderr)")
                let verdict = try Harness.json(json.stdout)
                #expect(verdict["ok"] as? Bool == false && verdict["file"] as? String == file, "\(bad): \(verdict)")
                #expect(verifyNaming.allSatisfy { (verdict["problem"] as? String ?? "").contains($0) }, "\(bad): \(verdict)")
            } else {
                #expect(json.stdout.isEmpty, "\(bad): \(json.stdout)")
            }
        }
        await #expect(try Self.snapshot(ledger) == before, "\(bad): something was written")
    }

    /// Every damaged export really is bad: the independent verifier (`Tools/verify_export.py`,
    /// the procedure of `Schemas/export.md`) rejects each (1: does not verify; 2: not JSON, no
    /// file), as Reel does in process (ImportRefusalTests) and here through `reel`.
    @Test func theIndependentVerifierRejectsEveryDamagedExport() async throws {
        let ledger = try await Self.makeLedger()
        let good = try await String(contentsOfFile: try Self.export(ledger), encoding: .utf8)
        let dir = temporaryDirectory("damaged")
        #expect(try await Harness.python("verify_export.py", [try Self.export(ledger)]).status == 0, "the good export verifies")
        for bad in BadFile.allCases where bad.verifyStatus != nil {
            let file = dir + "/\(bad).\(bad.fileExtension)"
            if let bytes = DamagedExports.make(bad, from: good).bytes { try Data(bytes).write(to: URL(fileURLWithPath: file)) }
            let python = try await Harness.python("verify_export.py", [file])
            #expect(python.status != 0, "\(bad): verify_export.py accepted it: \(python.stdout)")
            #expect(!python.stderr.isEmpty && python.stdout.isEmpty, "\(bad): \(python.stdout)\(python.stderr)")
        }
        for subtle in SubtleFile.allCases {
            let file = dir + "/\(subtle).json"
            try Data(DamagedExports.make(subtle, from: good).bytes).write(to: URL(fileURLWithPath: file))
            let python = try await Harness.python("verify_export.py", [file])
            #expect(python.status == 1, "\(subtle): verify_export.py: \(python.stdout)\(python.stderr)")
        }
    }

    /// One of `SubtleFile` through `reel`; all of them in process (ImportRefusalTests).
    @Test(arguments: [SubtleFile.duplicateMember, .nonCanonicalEnvelopeBase64])
    func aFileTheProcedureRejectsIsRefusedByReelToo(_ subtle: SubtleFile) async throws {
        let ledger = try await Self.makeLedger()
        let good = try await String(contentsOfFile: try Self.export(ledger), encoding: .utf8)
        let file = temporaryDirectory("subtle") + "/\(subtle).json"
        let (bytes, naming) = DamagedExports.make(subtle, from: good)
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        let before = try await Self.snapshot(ledger)
        try await Self.refuses(ledger, ["account", "verify-export", file], status: 65, file: file, naming: naming, "\(subtle): verify-export")
        try await Self.refuses(ledger, ["account", "import", file, "--as", "newcomer"], status: 65, file: file, naming: naming, "\(subtle): import")
        await #expect(try Self.snapshot(ledger) == before, "\(subtle): something was written")
        try await Self.expectFree("newcomer", in: ledger, "\(subtle)")
    }

    // MARK: - Other apps' lists

    /// Imports `text` (written to a file named `name`) into `user` with `--json`; checks the
    /// report against the schema and returns it with the file's path.
    static func importList(
        _ ledger: Ledger, _ name: String, _ text: String, user: String = handle, extra: [String] = []
    ) async throws -> (report: [String: Any], file: String) {
        let file = temporaryDirectory("list") + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return await (try ledger.json(["account", "import", file] + extra, user: user, schema: "account-import.schema.json"), file)
    }

    /// The unmatched rows of a list import's report, as "location: title".
    static func unmatched(_ report: [String: Any]) -> [String] {
        (report["unmatched"] as? [[String: Any]] ?? []).map { "\($0["location"] as? String ?? "?"): \($0["title"] as? String ?? "?")" }
    }

    /// Expects a list import to save `added` (key and date) into `mover`, leave what it had, find
    /// `already` saved, count `repeated` rows naming a title an earlier row names, list `unmatched`;
    /// the counts add up to the rows; a dry run before it writes nothing, and running it again adds nothing.
    static func expectListImport(
        _ name: String, _ text: String, format: String, rows: Int, added: [(key: String, addedAt: String)], already: Int, repeated: Int = 0,
        unmatched: [String]
    ) async throws {
        #expect(added.count + already + repeated + unmatched.count == rows, "\(name): the expected counts add up")
        let ledger = try await makeLedger()
        let stream = try await Self.stream(of: handle, in: ledger)
        let original = try await saved(ledger, handle)
        let before = try await snapshot(ledger)

        let dry = try await importList(ledger, name, text, extra: ["--dry-run"]).report
        #expect(dry["dryRun"] as? Bool == true && dry["stream"] is NSNull, "\(name): \(dry)")
        #expect(dry["added"] as? Int == added.count && dry["alreadySaved"] as? Int == already, "\(name): \(dry)")
        await #expect(try snapshot(ledger) == before, "\(name): the dry run wrote something")

        let (report, file) = try await importList(ledger, name, text)
        #expect(report["kind"] as? String == "list" && report["format"] as? String == format && report["dryRun"] as? Bool == false, "\(name): \(report)")
        #expect(report["user"] as? String == handle && report["stream"] as? String == stream, "\(name): into the existing account: \(report)")
        #expect(report["rows"] as? Int == rows && report["matched"] as? Int == added.count + already + repeated, "\(name): \(report)")
        #expect(report["repeated"] as? Int == repeated, "\(name): \(report)")
        #expect(report["added"] as? Int == added.count && report["alreadySaved"] as? Int == already, "\(name): \(report)")
        #expect(Self.unmatched(report) == unmatched, "\(name): \(report)")
        #expect((report["unmatched"] as? [[String: Any]] ?? []).allSatisfy { !($0["reason"] as? String ?? "").isEmpty })

        let now = try await saved(ledger, handle)
        #expect(Array(now.prefix(original.count)) == original, "\(name): what was saved is left as it was")
        #expect(now.dropFirst(original.count).map(\.key) == added.map(\.key), "\(name): the new titles, in the file's order")
        for (key, addedAt) in added {
            #expect(now.first { $0.key == key }?.addedAt == addedAt, "\(name): \(key) keeps the date the file gives: \(now)")
        }
        let history = try await ledger.json(["history"], user: handle, schema: "history.schema.json")["events"] as? [[String: Any]] ?? []
        #expect(history.suffix(added.count).allSatisfy { $0["type"] as? String == "favorite-imported" }, "\(name)")
        let events = try await ledger.eventCount()

        let again = try await ledger.json(["account", "import", file], user: handle, schema: "account-import.schema.json")
        #expect(again["added"] as? Int == 0 && again["alreadySaved"] as? Int == added.count + already, "\(name): again: \(again)")
        #expect(again["repeated"] as? Int == repeated, "\(name): again: \(again)")
        #expect(Self.unmatched(again) == unmatched, "\(name): again")
        await #expect(try ledger.eventCount() == events, "\(name): running it again appended events")
        await #expect(try saved(ledger, handle) == now, "\(name)")
        try await expectLedgerIntact(ledger, name)

        let human = try await ledger.reel(["account", "import", file], user: handle)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(
            human.stdout.contains("\(rows) rows, added 0 to 'mover', \(added.count + already) already saved, \(repeated) repeated, \(unmatched.count) unmatched"),
            "\(human.stdout)")
        for row in unmatched {
            let line = human.stdout.split(separator: "\n").first { $0.contains("unmatched \(row)") }.map(String.init)
            #expect(line != nil, "\(name): \(human.stdout)")
            // The row's title is named once, not again in the reason.
            let title = String(row.drop { $0 != ":" }.dropFirst(2))
            #expect(line.map { $0.components(separatedBy: title).count == 2 } == true, "\(name): \(line ?? "")")
        }
    }

    @Test func aLetterboxdExportIsMatchedByTitleAndYearAndKeepsItsDates() async throws {
        let csv = """
            Date,Name,Year,Letterboxd URI
            2023-04-05,The Matrix,1999,https://boxd.it/2bA8
            2023-05-06,Pulp Fiction,1994,https://boxd.it/2b4s
            2023-06-07,Fight Club,1999,https://boxd.it/2a9q
            2023-07-08,Zq Nowhere Picture,2001,https://boxd.it/zZq1

            """
        try await Self.expectListImport(
            "watchlist.csv", csv, format: "letterboxd", rows: 4,
            added: [("movie 603", "2023-04-05T00:00:00.000000Z"), ("movie 680", "2023-05-06T00:00:00.000000Z")], already: 1,
            unmatched: ["line 5: Zq Nowhere Picture (2001)"])
    }

    /// A Letterboxd diary lists a film each time it was watched: saved once, the other rows counted
    /// as repeated, so the counts add up to the rows (text and JSON alike).
    @Test func aDiaryWithAFilmWatchedTwiceCountsTheRepeat() async throws {
        let csv = """
            Date,Name,Year,Letterboxd URI
            2023-04-05,The Matrix,1999,https://boxd.it/2bA8
            2023-05-06,The Matrix,1999,https://boxd.it/2bA8
            2023-06-07,Fight Club,1999,https://boxd.it/2a9q
            2023-07-08,Zq Nowhere Picture,2001,https://boxd.it/zZq1

            """
        try await Self.expectListImport(
            "diary.csv", csv, format: "letterboxd", rows: 4, added: [("movie 603", "2023-04-05T00:00:00.000000Z")], already: 1, repeated: 1,
            unmatched: ["line 5: Zq Nowhere Picture (2001)"])
    }

    @Test func anIMDbListIsMatchedThroughItsIdsAndKeepsWhenEachWasAdded() async throws {
        let csv = """
            Position,Const,Created,Modified,Description,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors
            1,tt0111161,2022-01-10,2022-01-10,,The Shawshank Redemption,https://www.imdb.com/title/tt0111161/,Movie,9.3,142,1994,"Crime, Drama",2900000,1994-09-23,Frank Darabont
            2,tt0903747,2022-02-11,2022-02-11,,Breaking Bad,https://www.imdb.com/title/tt0903747/,TV Series,9.5,49,2008,"Crime, Drama, Thriller",2100000,2008-01-20,
            3,tt0137523,2022-03-12,2022-03-12,,Fight Club,https://www.imdb.com/title/tt0137523/,Movie,8.8,139,1999,Drama,2300000,1999-10-15,David Fincher
            4,tt0068646,2022-04-13 08:30:00,2022-04-13,,The Godfather,https://www.imdb.com/title/tt0068646/,Movie,9.2,175,1972,"Crime, Drama",2000000,1972-03-24,Francis Ford Coppola
            5,tt9999991,2022-05-14,2022-05-14,,Zq Unfindable Film,https://www.imdb.com/title/tt9999991/,Movie,5.0,90,2001,Drama,12,2001-05-05,Nobody

            """
        try await Self.expectListImport(
            "imdb-list.csv", csv, format: "imdb", rows: 5,
            added: [
                ("movie 278", "2022-01-10T00:00:00.000000Z"), ("tv 1396", "2022-02-11T00:00:00.000000Z"), ("movie 238", "2022-04-13T08:30:00.000000Z"),
            ], already: 1, unmatched: ["line 6: Zq Unfindable Film (2001)"])
    }

    @Test func aTraktWatchlistIsMatchedByTMDbIdAndKeepsItsListedAt() async throws {
        let json = """
            [
              {"rank": 1, "id": 101, "listed_at": "2024-01-02T03:04:05.000Z", "notes": null, "type": "movie",
               "movie": {"title": "Inception", "year": 2010, "ids": {"trakt": 16662, "slug": "inception-2010", "imdb": "tt1375666", "tmdb": 27205}}},
              {"rank": 2, "id": 102, "listed_at": "2024-02-03T04:05:06.789Z", "notes": null, "type": "show",
               "show": {"title": "Stranger Things", "year": 2016, "ids": {"trakt": 1393, "slug": "stranger-things", "tvdb": 305288, "imdb": "tt4574334", "tmdb": 66732}}},
              {"rank": 3, "id": 103, "listed_at": "2024-03-04T05:06:07.000Z", "notes": null, "type": "show",
               "show": {"title": "Game of Thrones", "year": 2011, "ids": {"trakt": 1390, "slug": "game-of-thrones", "tvdb": 121361, "imdb": "tt0944947", "tmdb": 1399}}},
              {"rank": 4, "id": 104, "listed_at": "2024-04-05T06:07:08.000Z", "notes": null, "type": "movie",
               "movie": {"title": "Zq Phantom Movie", "year": 2005, "ids": {"trakt": 999999, "slug": "zq-phantom-movie-2005", "imdb": null, "tmdb": null}}}
            ]

            """
        try await Self.expectListImport(
            "watchlist.json", json, format: "trakt", rows: 4,
            added: [("movie 27205", "2024-01-02T03:04:05.000000Z"), ("tv 66732", "2024-02-03T04:05:06.789000Z")], already: 1,
            unmatched: ["entry 4: Zq Phantom Movie (2005)"])
    }

    @Test func letterboxdsImportFormatWithoutDatesSavesTheTitlesAsOfTheImport() async throws {
        let ledger = try await Self.makeLedger()
        let csv = "tmdbID,Title,Year\n278,The Shawshank Redemption,1994\n,Zq Unknown Feature,1999\n155,The Dark Knight,2008\n"
        let start = Self.secondsISO(Date().addingTimeInterval(-1))
        let (report, _) = try await Self.importList(ledger, "import.csv", csv, extra: ["--as", Self.other])
        let end = Self.secondsISO(Date().addingTimeInterval(1))
        #expect(report["user"] as? String == Self.other && report["format"] as? String == "letterboxd", "\(report)")
        #expect(report["rows"] as? Int == 3 && report["added"] as? Int == 2 && Self.unmatched(report) == ["line 3: Zq Unknown Feature (1999)"], "\(report)")
        let saved = try await Self.saved(ledger, Self.other)
        #expect(saved.map(\.key) == ["movie 238", "movie 278", "movie 155"], "--as names the account: \(saved)")
        for item in saved.dropFirst() {
            #expect(String(item.addedAt.prefix(19)) >= start && String(item.addedAt.prefix(19)) <= end, "\(item) between \(start) and \(end)")
        }
        await #expect(try Self.saved(ledger, Self.handle).map(\.key) == Self.savedKeys, "--as, not --user")
    }

    static func secondsISO(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return String(formatter.string(from: date).prefix(19))
    }

    @Test func aLetterboxdExportFromReelImportsAsTheSameMovies() async throws {
        let ledger = try await Self.makeLedger()
        let file = temporaryDirectory("letterboxd") + "/films.csv"
        let out = try await ledger.reel(["account", "export", "--format", "letterboxd", "--out", file], user: Self.handle)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("1 saved series left out"), "\(out.stderr)")
        let csv = try String(contentsOfFile: file, encoding: .utf8)
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(lines.first == "tmdbID,Title,Year" && lines.count == 3, "\(csv)")
        let ids: [String] = lines.dropFirst().map { (line: String) -> String in line.split(separator: ",").first.map(String.init) ?? "" }
        #expect(ids == ["550", "13"], "\(csv)")
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 3 }, "titles and years known to the catalog: \(csv)")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let movies = try await Self.saved(ledger, Self.handle).filter { $0.mediaType == "movie" }.map(\.key)

        // Into another data directory (a new account) and into another account here (ann has 238).
        let elsewhere = Ledger()
        let report = try await elsewhere.json(["account", "import", file, "--as", "boxd"], schema: "account-import.schema.json")
        #expect(report["format"] as? String == "letterboxd" && report["added"] as? Int == 2 && Self.unmatched(report).isEmpty, "\(report)")
        await #expect(try Self.saved(elsewhere, "boxd").map(\.key) == movies)
        let here = try await ledger.json(["account", "import", file], user: Self.other, schema: "account-import.schema.json")
        #expect(here["added"] as? Int == 2, "\(here)")
        await #expect(try Self.saved(ledger, Self.other).map(\.key) == ["movie 238"] + movies)
    }

    @Test func importedTitlesKeepTheirDatesThroughAnExportAndARestore() async throws {
        let ledger = try await Self.makeLedger()
        let csv = "Date,Name,Year,Letterboxd URI\n2023-04-05,The Matrix,1999,https://boxd.it/2bA8\n"
        await #expect(try Self.importList(ledger, "watchlist.csv", csv).report["added"] as? Int == 1)
        let original = try await Self.saved(ledger, Self.handle)
        #expect(original.last == Item(mediaType: "movie", id: 603, addedAt: "2023-04-05T00:00:00.000000Z"), "\(original)")

        let file = try await Self.export(ledger)
        #expect(try await ledger.reel(["account", "verify-export", file]).status == 0)
        let python = try await Harness.python("verify_export.py", [file])
        #expect(python.status == 0, "\(python.stdout)\(python.stderr)")
        let target = Ledger()
        let restored = try await target.json(["account", "import", file], schema: "account-import.schema.json")
        #expect(restored["user"] as? String == Self.handle && restored["saved"] as? Int == 4, "without --as, the exported handle: \(restored)")
        await #expect(try Self.saved(target, Self.handle) == original)
    }

    @Test func aCrashRightAfterAListImportCommitsKeepsTheTitles() async throws {
        let ledger = try await Self.makeLedger()
        let file = temporaryDirectory("list") + "/import.csv"
        try "tmdbID,Title,Year\n278,The Shawshank Redemption,1994\n".write(toFile: file, atomically: true, encoding: .utf8)
        let crash = try await ledger.reel(["account", "import", file], user: Self.handle, environment: ["REEL_FAILPOINT": "import:committed"])
        #expect(crash.status == 128 + SIGKILL, "killed by SIGKILL, not exit \(crash.status): \(crash.stderr)")
        await #expect(try Self.saved(ledger, Self.handle).map(\.key) == Self.savedKeys + ["movie 278"])
        let again = try await ledger.json(["account", "import", file], user: Self.handle, schema: "account-import.schema.json")
        #expect(again["added"] as? Int == 0 && again["alreadySaved"] as? Int == 1, "\(again)")
        try await Self.expectLedgerIntact(ledger, "after the crash")
    }
}

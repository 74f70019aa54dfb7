import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Titles, names and overviews from a hostile TMDb (`fake-tmdb`'s `hostile` fault) and from a
/// hostile import file never reach a terminal as escapes, bare CR/LF or bidi overrides in text
/// mode; `--json` keeps them exact. Spreadsheet formulas in titles are written as text to a
/// Letterboxd CSV, and read back as they were.
@Suite struct HostileTextTests {

    /// What the `hostile` fault wraps every text in (`Fault.hostilePrefix`, `Fault.hostileSuffix`).
    static let prefix = "\u{1B}]0;reel-pwned\u{07}\u{1B}[31m"
    static let suffix = "\u{1B}[2J\r\nFORGED LINE\t\u{202E}txt.exe\u{2066}\u{9B}1m\u{7F}"

    /// The characters that must not reach a terminal: C0 controls but LF (between lines), DEL,
    /// C1, bidi overrides, embeddings, isolates and marks, line and paragraph separators.
    static func unsafe(_ text: String) -> [String] {
        text.unicodeScalars.compactMap { scalar -> String? in
            switch scalar.value {
            case 0x0A: nil
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
                "U+" + String(scalar.value, radix: 16, uppercase: true)
            default: nil
            }
        }
    }

    static func expectSafe(_ out: Harness.Output, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(out.status == 0, "\(arguments): exit \(out.status): \(out.stderr)", sourceLocation: sourceLocation)
        #expect(unsafe(out.stdout).isEmpty, "\(arguments) stdout: \(Set(unsafe(out.stdout))): \(out.stdout)", sourceLocation: sourceLocation)
        #expect(unsafe(out.stderr).isEmpty, "\(arguments) stderr: \(Set(unsafe(out.stderr))): \(out.stderr)", sourceLocation: sourceLocation)
        // Overviews and biographies keep their paragraphs (a line break there is one); any
        // other text is one line.
        if !["show", "person"].contains(arguments[0]) {
            #expect(!out.stdout.contains("\nFORGED LINE"), "\(arguments): a forged line: \(out.stdout)", sourceLocation: sourceLocation)
        }
    }

    @Test func hostileCatalogTextIsMadeSafeInTextAndKeptExactInJSON() async throws {
        let server = try FakeTMDbProcess()
        try await server.fault("kind=hostile&count=100000")
        let home = Home(server: server)
        let commands: [[String]] = [
            ["fav", "add", "movie", "550", "603"], ["fav", "add", "tv", "1399"], ["show", "movie", "550"], ["show", "tv", "1399", "--similar"],
            ["saved"], ["saved", "--search", "club"], ["history"], ["search", "matrix"], ["search", "brad", "--type", "person"],
            ["movies"], ["series", "--popular"], ["person"], ["person", "287"], ["genres"], ["fav", "remove", "movie", "603"],
            ["settings"], ["history"], ["accounts"],
        ]
        for arguments in commands {
            let out = try await home.reel(arguments)
            Self.expectSafe(out, arguments)
        }
        // The titles are there, only made safe: the escape shown as U+FFFD, the break as a space.
        let show = try await home.reel(["show", "movie", "550"])
        #expect(show.stdout.contains("\u{FFFD}]0;reel-pwned\u{FFFD}\u{FFFD}[31mFight Club\u{FFFD}[2J FORGED LINE txt.exe\u{FFFD}1m\u{FFFD}"), "\(show.stdout)")
        // A name that would reorder what a terminal shows is refused, and not echoed (issue 19).
        let name = try await home.reel(["settings", "name", "\u{202E}evil\u{2066}name"])
        #expect(name.status == 64 && name.stderr.contains("(U+202E)"), "\(name.stderr)")
        Self.expectSafe(Harness.Output(status: 0, stdout: name.stdout, stderr: name.stderr), ["settings", "name"])

        // --json keeps every byte, in every document that carries the text.
        let details = try await home.json(["show", "movie", "550"], schema: "show.schema.json")
        #expect(details["title"] as? String == Self.prefix + "Fight Club" + Self.suffix)
        let saved = try await home.json(["saved"], schema: "saved.schema.json")
        #expect((saved["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }.contains(Self.prefix + "Fight Club" + Self.suffix) == true)
        let history = try await home.json(["history"], schema: "history.schema.json")
        #expect((history["events"] as? [[String: Any]])?.contains { ($0["title"] as? String)?.hasPrefix(Self.prefix) == true } == true)
    }

    @Test func aHostileImportFileIsReportedSafely() async throws {
        let home = Home()
        let dir = temporaryDirectory("hostile-import")
        // Titles no catalog knows, so each is listed as unmatched, quoting the file.
        let file = dir + "/list.csv"
        try Data("Name,Year\n\"\u{1B}]0;pwned\u{07}Nothing\rLike\u{202E}It\",1999\n\u{9B}2JNor\u{7F}This,2001\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        for arguments in [["account", "import", file], ["account", "import", file, "--dry-run"]] {
            let out = try await home.reel(arguments)
            Self.expectSafe(out, arguments)
            #expect(out.stdout.contains("2 unmatched"), "\(out.stdout)")
            #expect(out.stdout.contains("\u{FFFD}]0;pwned\u{FFFD}Nothing Like"), "\(out.stdout)")
        }
        let json = try await home.json(["account", "import", file, "--dry-run"], schema: "account-import.schema.json")
        let titles = (json["unmatched"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        #expect(titles.contains { $0.contains("\u{1B}]0;pwned\u{07}Nothing\rLike\u{202E}It") }, "\(titles)")

        // An error that quotes the file: one safe line.
        let bad = dir + "/bad.csv"
        try Data("Name,Year\nHeat,\u{1B}]0;pwned\u{07}\n".utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try await home.fails(["account", "import", bad], status: 65, "line 2", "Year")
        #expect(Self.unsafe(refused.stderr).isEmpty, "\(refused.stderr)")
    }

    /// OWASP's CSV injection rule in the Letterboxd export: a title from TMDb such as
    /// `=HYPERLINK(…)` is written as text; the import reads the title back as TMDb gave it.
    @Test func formulaTitlesAreExportedAsTextAndImportedBack() async throws {
        let server = try FakeTMDbProcess()
        try await server.fault("kind=formula&count=100000")
        let home = Home(server: server)
        #expect(try await home.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        let file = temporaryDirectory("formula") + "/letterboxd.csv"
        let export = try await home.reel(["account", "export", "--format", "letterboxd", "--out", file])
        #expect(export.status == 0, "\(export.stderr)")
        let csv = try String(contentsOfFile: file, encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst()
        #expect(rows.count == 2, "\(csv)")
        for row in rows {
            let title = row.split(separator: ",", maxSplits: 1)[1]
            #expect(title.hasPrefix("\"'=HYPERLINK(\"\""), "\(row)")
        }
        // The file imports as Letterboxd's own (by tmdbID), into another account.
        let json = try await home.json(["account", "import", file, "--as", "other"], schema: "account-import.schema.json")
        #expect(json["added"] as? Int == 2, "\(json)")
        // Without the ids, the titles read back as TMDb gave them (the guard taken off), and are
        // listed as such when TMDb's search does not find them.
        let titlesOnly = temporaryDirectory("formula") + "/titles.csv"
        let lines = csv.split(separator: "\n").map { line in line.split(separator: ",", maxSplits: 1)[1] }
        try (lines.joined(separator: "\n") + "\n").write(toFile: titlesOnly, atomically: true, encoding: .utf8)
        let dry = try await home.json(["account", "import", titlesOnly, "--format", "letterboxd", "--as", "third", "--dry-run"], schema: "account-import.schema.json")
        let unmatched = (dry["unmatched"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        #expect(unmatched.count == 2, "\(dry)")
        for title in unmatched { #expect(title.hasPrefix("=HYPERLINK(\"https://evil.example/\",\""), "\(title)") }
    }
}

import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Issue 19, "Tables that line up in every script", through the built binary: with titles in
/// Japanese, Korean, emoji, combining accents, Hebrew and Arabic (`fake-tmdb`'s `wide` fault),
/// every line of `movies`, `saved`, `history`, `settings`, `accounts`, `about` and
/// `show --similar` fits `COLUMNS`, and each column starts at the same terminal column in every
/// row. Widths are measured here, by a small rule of this file's own, not by Reel's.
@Suite struct WideTextTableTests {
    typealias Ledger = LedgerHome

    static let widths = [100, 60]

    // MARK: - Columns, counted independently of Reel

    /// The columns a terminal gives one character of the texts these tests meet: 2 for CJK,
    /// Hangul, fullwidth forms and emoji (emoji sequences, flags and skin tones as one), 0 for
    /// combining marks and invisible joiners, 1 for the rest (Latin, Hebrew, Arabic, `★`, `…`).
    static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value) }) {
            return 2
        }
        switch scalars.first!.value {
        case 0x0300...0x036F, 0x0591...0x05C7, 0x064B...0x065F, 0x200B...0x200F: return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x1F1E6...0x1F1FF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// A line as a terminal lays it out: per column, the character that starts there, or "" in
    /// the second column of a wide one.
    static func grid(_ line: Substring) -> [String] {
        var cells: [String] = []
        for character in line {
            let n = columns(character)
            if n == 0, !cells.isEmpty {
                cells[cells.count - 1].append(character)
            } else {
                cells.append(String(character))
                if n == 2 { cells.append("") }
            }
        }
        return cells
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    // MARK: - Expectations

    /// Every line of `out` (a successful run) at most `width` columns.
    static func expectFits(_ out: Harness.Output, _ width: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(out.status == 0, "\(what): exit \(out.status): \(out.stderr)", sourceLocation: sourceLocation)
        for line in lines(out.stdout) {
            #expect(grid(line).count <= width, "\(what) at \(width): \(grid(line).count) columns: '\(line)'", sourceLocation: sourceLocation)
        }
    }

    /// The table of `out` whose header line starts with `headerPrefix`: in each of its `rows`
    /// rows (each line after the header up to that many), a left-aligned column named in `left`
    /// starts exactly below its header, after a gap; a right-aligned one in `right` ends exactly
    /// below its header's end, a space or the line's end after it.
    static func expectAligned(
        _ out: Harness.Output, header headerPrefix: String, rows: Int, left: [String], right: [String], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let all = lines(out.stdout)
        guard let h = all.firstIndex(where: { $0.hasPrefix(headerPrefix) }) else {
            Issue.record("\(what): no header '\(headerPrefix)' in \(out.stdout)", sourceLocation: sourceLocation)
            return
        }
        let header = all[h]
        let body = all[(h + 1)...].prefix(rows)
        #expect(body.count == rows, "\(what): \(body.count) rows of \(rows)", sourceLocation: sourceLocation)
        func offset(_ label: String) -> Int? { header.range(of: label).map { header.distance(from: header.startIndex, to: $0.lowerBound) } }
        for label in left + right where offset(label) == nil {
            Issue.record("\(what): no column \(label) in '\(header)'", sourceLocation: sourceLocation)
        }
        for line in body {
            let cells = grid(line)
            func at(_ i: Int) -> String { i >= 0 && i < cells.count ? cells[i] : "" }
            for label in left {
                guard let start = offset(label) else { continue }
                #expect(
                    at(start - 2) == " " && at(start - 1) == " " && at(start) != " " && !at(start).isEmpty,
                    "\(what): \(label) does not start at column \(start): '\(line)'", sourceLocation: sourceLocation)
            }
            for label in right {
                guard let end = offset(label).map({ $0 + label.count - 1 }) else { continue }
                #expect(
                    at(end) != " " && !at(end).isEmpty && (end + 1 == cells.count || at(end + 1) == " "),
                    "\(what): \(label) does not end at column \(end): '\(line)'", sourceLocation: sourceLocation)
            }
        }
    }

    /// The text a wrapping column holds for the row that starts with `rowPrefix`: its cell on that
    /// line and on the continuation lines below it (blank up to the column), joined by `separator`.
    static func wrappedCell(_ out: Harness.Output, column label: String, rowPrefix: String, separator: String = "") -> String? {
        let all = lines(out.stdout)
        guard let header = all.first(where: { $0.contains(label) }), let range = header.range(of: label),
            let row = all.firstIndex(where: { $0.hasPrefix(rowPrefix) })
        else { return nil }
        let start = header.distance(from: header.startIndex, to: range.lowerBound)
        var pieces: [String] = []
        for (n, line) in all[row...].enumerated() {
            let cells = grid(line)
            if n > 0, cells.prefix(start).contains(where: { $0 != " " }) || cells.count <= start { break }
            pieces.append(cells.dropFirst(start).joined())
        }
        return pieces.joined(separator: separator)
    }

    // MARK: - A catalog in every script

    /// An account on a fake TMDb that names every title, genre and person in another script;
    /// eleven movies and a series saved, one removed.
    static func wideHome() async throws -> (FakeTMDbProcess, Home) {
        let server = try FakeTMDbProcess()
        try await server.fault("kind=wide&count=1000000")
        let home = Home(server: server)
        for command in [
            ["fav", "add", "movie", "550", "603", "129", "496243", "372058", "429", "680", "13", "807", "27205", "128", "205596"],
            ["fav", "add", "tv", "1399"], ["fav", "remove", "movie", "13"],
        ] {
            let out = try await home.reel(command)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        return (server, home)
    }

    @Test func theFakeServerServesTitlesInEveryScript() async throws {
        let (server, home) = try await Self.wideHome()
        defer { server.stop() }
        let saved = try await home.json(["saved"], schema: "saved.schema.json")
        let titles = ((saved["items"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }.joined(separator: " ")
        let scalars = Set(titles.unicodeScalars.map(\.value))
        for (name, range) in [
            ("kana or ideographs", 0x3041...0x9FFF), ("Hangul", 0xAC00...0xD7A3), ("emoji", 0x1F300...0x1F9FF),
            ("combining accents", 0x0300...0x036F), ("Hebrew or Arabic", 0x0590...0x06FF),
        ] as [(String, ClosedRange<UInt32>)] {
            #expect(scalars.contains { range.contains($0) }, "no \(name) in the saved titles: \(titles)")
        }
    }

    @Test func titleListsLineUpAndFit() async throws {
        let (server, home) = try await Self.wideHome()
        defer { server.stop() }
        let movies = try await home.json(["movies"], schema: "title-list.schema.json")["count"] as? Int ?? 0
        let saved = try await home.json(["saved"], schema: "saved.schema.json")["count"] as? Int ?? 0
        #expect(movies > 5 && saved == 12)
        for width in Self.widths {
            let environment = ["COLUMNS": String(width)]
            let list = try await home.reel(["movies"], environment: environment)
            Self.expectFits(list, width, "movies")
            Self.expectAligned(list, header: "   TMDB ID", rows: movies, left: ["TITLE"], right: ["TMDB ID", "YEAR"], "movies at \(width)")
            if width >= 100 {
                Self.expectAligned(list, header: "   TMDB ID", rows: movies, left: ["GENRES"], right: ["RATING"], "movies at \(width)")
            }
            let savedList = try await home.reel(["saved"], environment: environment)
            Self.expectFits(savedList, width, "saved")
            Self.expectAligned(savedList, header: " #", rows: saved, left: ["TITLE"], right: ["TMDB ID", "YEAR"], "saved at \(width)")
            if width >= 100 {
                Self.expectAligned(savedList, header: " #", rows: saved, left: ["TYPE", "GENRES"], right: ["#", "RATING"], "saved at \(width)")
            }
        }
        // Wide titles are cut at a column boundary: a cut one ends in the ellipsis, the year in place.
        let narrow = try await home.reel(["saved"], environment: ["COLUMNS": "60"])
        #expect(narrow.stdout.contains("…"), "\(narrow.stdout)")
    }

    @Test func historyWrapsWhatHappenedInsteadOfCuttingIt() async throws {
        let (server, home) = try await Self.wideHome()
        defer { server.stop() }
        let events = try await home.json(["history"], schema: "history.schema.json")["events"] as? [[String: Any]] ?? []
        let summaries = events.compactMap { $0["summary"] as? String }
        #expect(summaries.count > 10, "\(summaries)")
        for width in Self.widths {
            let out = try await home.reel(["history"], environment: ["COLUMNS": String(width)])
            Self.expectFits(out, width, "history")
            #expect(!out.stdout.contains("…"), "history at \(width) cut a line: \(out.stdout)")
            let body = Self.lines(out.stdout).dropFirst().filter { !$0.isEmpty }
            #expect(body.count > summaries.count, "history at \(width) wrapped nothing: \(out.stdout)")
            // Rows and their continuation lines alike: what happened starts below its header.
            Self.expectAligned(out, header: "POSITION", rows: body.count, left: ["WHAT HAPPENED"], right: [], "history at \(width)")
            // Every word of every event is there.
            let words = Set(out.stdout.split(whereSeparator: \.isWhitespace))
            for summary in summaries {
                for word in summary.split(separator: " ") { #expect(words.contains(word), "history at \(width): '\(word)' of '\(summary)' missing") }
            }
        }
    }

    @Test func similarTitlesAreAnAlignedTableWithSavedOnesMarked() async throws {
        let (server, home) = try await Self.wideHome()
        defer { server.stop() }
        let details = try await home.json(["show", "movie", "550", "--similar"], schema: "show.schema.json")
        let similar = details["similar"] as? [[String: Any]] ?? []
        let saved = similar.filter { $0["saved"] as? Bool == true }.compactMap { $0["id"] as? Int }
        #expect(similar.count > 3 && saved.sorted() == [603, 680, 807], "\(similar)")
        for width in Self.widths {
            let out = try await home.reel(["show", "movie", "550", "--similar"], environment: ["COLUMNS": String(width)])
            // The similar titles fit; above them, only a URL may be wider, kept whole to be opened
            // (the fake server's own image URLs are plain http).
            let similarPart = try #require(out.stdout.range(of: "\nSimilar:\n"))
            Self.expectFits(Harness.Output(status: out.status, stdout: String(out.stdout[similarPart.lowerBound...]), stderr: out.stderr), width, "show --similar")
            for line in Self.lines(String(out.stdout[..<similarPart.lowerBound])) where Self.grid(line).count > width {
                #expect((line.hasPrefix("https://") || line.hasPrefix(server.root + "/t/p/")) && !line.contains(" "), "show at \(width): '\(line)'")
            }
            Self.expectAligned(out, header: "   TMDB ID", rows: similar.count, left: ["TITLE"], right: ["TMDB ID", "YEAR"], "show --similar at \(width)")
            // ★ on exactly the saved ones, as in the lists.
            let all = Self.lines(out.stdout)
            let header = try #require(all.firstIndex { $0.hasPrefix("   TMDB ID") })
            for row in all[(header + 1)...].prefix(similar.count) {
                let id = Int(row.dropFirst(3).prefix(7).trimmingCharacters(in: .whitespaces)) ?? -1
                #expect(row.hasPrefix("★") == saved.contains(id), "\(id): '\(row)'")
            }
        }
    }

    // MARK: - Settings, accounts, about

    @Test func settingsWrapALongNameWithinTheWidth() async throws {
        let (server, home) = try await Self.wideHome()
        defer { server.stop() }
        let names = [
            String(repeating: "Abcdefghij", count: 10),  // 100 characters, no space
            String(String(repeating: "千と千尋の神隠し기생충", count: 10).prefix(100)),  // 100 characters, 200 columns
            String(repeating: "Ame\u{301}lie 👨\u{200D}👩\u{200D}👧 ", count: 10).trimmingCharacters(in: .whitespaces),
        ]
        for name in names {
            #expect(try await home.reel(["settings", "name", name]).status == 0)
            for width in Self.widths + [40] {
                let out = try await home.reel(["settings"], environment: ["COLUMNS": String(width)])
                Self.expectFits(out, width, "settings")
                Self.expectAligned(out, header: "SETTING", rows: 4, left: ["VALUE"], right: [], "settings at \(width)")
                // The name is all there, across its lines (broken between characters, or at spaces).
                let separator = name.contains(" ") ? " " : ""
                #expect(Self.wrappedCell(out, column: "VALUE", rowPrefix: "name ", separator: separator) == name, "\(out.stdout)")
            }
        }
    }

    @Test func accountsFitTheWidthAndKeepADeletedAccountsStreamWhole() async throws {
        let ledger = Ledger()
        let long = String(repeating: "a-long-handle.", count: 5).prefix(64)
        for user in ["ann", String(long), "bob"] {
            #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: user).status == 0)
        }
        func check(_ state: String, streams: [String]) async throws {
            for width in Self.widths {
                let out = try await ledger.reel(["accounts"], environment: ["COLUMNS": String(width)])
                Self.expectFits(out, width, "accounts \(state)")
                let header = Self.lines(out.stdout).first { $0.hasPrefix("HANDLE") }.map(String.init) ?? ""
                Self.expectAligned(
                    out, header: "HANDLE", rows: 3, left: ["STATUS", "STREAM"].filter(header.contains), right: ["EVENTS", "SAVED"].filter(header.contains),
                    "accounts \(state) at \(width)")
                for stream in streams { #expect(out.stdout.contains(stream), "accounts \(state) at \(width): \(stream) not whole: \(out.stdout)") }
            }
        }
        try await check("all open", streams: [])
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: "bob").status == 0)
        let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        let deleted = accounts.filter { $0["status"] as? String == "deleted" }.compactMap { $0["stream"] as? String }
        #expect(deleted.count == 1)
        try await check("with one deleted", streams: deleted)
    }

    @Test func aboutWrapsItsProseAndPathsToTheWidth() async throws {
        let dir = temporaryDirectory("about") + "/a-data-directory-with-a-rather-long-name/and/some/more/levels/below/it"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ledger = Ledger(dir: dir)
        #expect(try await ledger.reel(["settings", "name", "Ann"]).status == 0)
        for width in Self.widths + [40] {
            let out = try await ledger.reel(["about"], environment: ["COLUMNS": String(width)])
            Self.expectFits(out, width, "about")
            Self.expectAligned(out, header: "WHAT", rows: 5, left: ["WHERE"], right: [], "about at \(width)")
            #expect(Self.wrappedCell(out, column: "WHERE", rowPrefix: "data directory") == dir, "\(out.stdout)")
            #expect(Self.wrappedCell(out, column: "WHERE", rowPrefix: "account keys")?.hasPrefix(dir) == true, "\(out.stdout)")
            let words = out.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("This product uses the TMDB API but is not endorsed or certified by TMDB."), "\(out.stdout)")
            #expect(words.contains("Each account's events are sealed under the account's own key."), "\(out.stdout)")
        }
    }
}

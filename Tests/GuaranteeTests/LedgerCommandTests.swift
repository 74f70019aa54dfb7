import EndToEndSupport
import Foundation
import Synchronization
import ReelTestSupport
import Testing

/// The ledger commands through the built `reel` binary, in fresh data directories.
@Suite struct LedgerCommandTests {
    /// The stores a test runs on: the LMDB store in the data directory, PostgreSQL, and a primary
    /// with a synchronous standby (pg_auto_failover) by a URL naming both.
    enum Store: String, CaseIterable, CustomStringConvertible, Sendable {
        case lmdb, postgres, pair
        var description: String { rawValue }
    }

    static let postgres = Task { try await PostgresServer.started("LedgerCommandTests") }

    /// A data directory and a way to run `reel` in it (`LedgerHome`).
    typealias Ledger = LedgerHome

    @Test(arguments: Store.allCases) func favoritesAreAddedOnceRemovedOnceAndSaySo(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            let added = try await ledger.json(["fav", "add", "movie", "550", "603", "550"], schema: "command-result.schema.json")
            #expect(added["changed"] as? Bool == true)
            let appended = added["appended"] as? [[String: Any]] ?? []
            #expect(appended.map { $0["type"] as? String } == ["account-opened", "favorite-added", "favorite-added"])
            #expect((added["outcomes"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["account-opened", "favorite-added", "favorite-added"])

            let again = try await ledger.json(["fav", "add", "movie", "550"], schema: "command-result.schema.json")
            #expect(again["changed"] as? Bool == false)
            #expect((again["appended"] as? [Any])?.isEmpty == true)
            #expect((again["outcomes"] as? [[String: Any]])?.first?["kind"] as? String == "already-saved")
            await #expect(try ledger.eventCount() == 3)

            let human = try await ledger.reel(["fav", "remove", "movie", "603", "999"])
            #expect(human.status == 0)
            #expect(human.stdout == "removed movie 603 The Matrix (1999)\nmovie 999 is not saved; nothing to do\n")
            await #expect(try ledger.eventCount() == 4)
            #expect(!human.stdout.contains("\u{1B}"), "NO_COLOR is set: no escape codes")

            // Removing from an account that does not exist opens nothing.
            let nobody = try await ledger.json(["fav", "remove", "tv", "1"], user: "nobody", schema: "command-result.schema.json")
            #expect(nobody["stream"] is NSNull)
            await #expect(try ledger.eventCount() == 4)
        }
    }

    @Test func badFavoriteArgumentsAreUsageErrorsAndWriteNothing() async throws {
        let ledger = Ledger()
        try await ledger.reel(["fav", "add", "movie", "550"])
        for (arguments, message) in [
            (["fav", "add", "movie", "0"], "'0' is not a TMDb id"),
            (["fav", "add", "movie", "--", "-5"], "'-5' is not a TMDb id"),
            (["fav", "add", "movie", "12abc"], "'12abc' is not a TMDb id"),
            (["fav", "add", "movie", "99999999999"], "not a TMDb id"),
            // Words that are not a media type and ids are a title to search for (SaveByNameTests).
            (["fav", "add", "movie"], "give at least one TMDb id"),
            (["fav", "remove", "tv", "7x"], "'7x' is not a TMDb id"),
            (["saved", "--sort", "price"], "'price' is invalid"),
            (["saved", "--as-of", "yesterday"], "'yesterday' is invalid"),
            // A day the month does not have was carried into March by timegm.
            (["saved", "--as-of", "2026-02-31"], "'2026-02-31' is invalid"),
            (["history", "--as-of", "2025-02-29T10:00Z"], "'2025-02-29T10:00Z' is invalid"),
            (["history", "--limit", "0"], "--limit takes a positive number"),
            (["nonsense"], "unknown command 'nonsense'"),
            // The refused text is the person's: shown whole, on one line.
            (["fav", "add", "movie", "1\n2"], "'1 2' is not a TMDb id"),
            (["settings", "language", "de\nDE"], "'de DE' is not a language tag"),
            // A malformed --user or --as is a usage mistake, also where the account is not used.
            (["fav", "add", "movie", "2", "--user", "Not A Handle"], "'Not A Handle' is not an account handle"),
            (["accounts", "--user", "Not A Handle"], "'Not A Handle' is not an account handle"),
            (["account", "import", "missing.csv", "--as", "Not A Handle"], "'Not A Handle' is not an account handle"),
        ] {
            try await ledger.fails(arguments, status: 64, message)
        }
        try await ledger.fails(["fav", "add", "movie", "2"], user: "Not A Handle", status: 64, "is not an account handle")
        await #expect(try ledger.eventCount() == 2)
    }

    @Test(arguments: Store.allCases) func savedListsAreFilledInFilteredAndSorted(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            try await ledger.reel(["fav", "add", "tv", "1399"])
            try await ledger.reel(["fav", "add", "movie", "550"])
            try await ledger.reel(["fav", "add", "tv", "66732"])
            // An id the sample catalog does not know is refused, as TMDb refuses one it lacks (66).
            let refused = try await ledger.reel(["fav", "add", "movie", "999999", "550"])
            #expect(refused.status == 66 && refused.stderr == "reel: the sample catalog has no movie with id 999999 (TMDb credentials show every title and person); nothing saved\n")
            // Saved offline, unchecked (as an id TMDb later lost would be): listed marked.
            let unknown = try await ledger.reel(["fav", "add", "movie", "999999"], environment: LedgerHome.unchecked)
            #expect(unknown.status == 0 && unknown.stderr.contains("offline: saved movie 999999 without checking"), "\(unknown.stderr)")
            let all = try await ledger.json(["saved"], schema: "saved.schema.json")
            let items = all["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["id"] as? Int } == [1399, 550, 66732, 999999])
            #expect(items.map { $0["title"] as? String } == ["Game of Thrones", "Fight Club", "Stranger Things", nil])
            #expect(items.map { $0["year"] as? Int } == [2011, 1999, 2016, nil])
            #expect(items.map { $0["details"] as? String } == ["known", "known", "known", "not-found"])
            #expect(items.allSatisfy { $0["mediaType"] is String && $0["addedAt"] is String && $0["saved"] as? Bool == true })
            #expect(all["detailsMissing"] as? Int == 1 && all["total"] as? Int == 4 && all["count"] as? Int == 4)

            func ids(_ arguments: [String]) async throws -> [Int?] {
                await (try ledger.json(["saved"] + arguments, schema: "saved.schema.json")["items"] as? [[String: Any]])?.map { $0["id"] as? Int } ?? []
            }
            await #expect(try ids(["--type", "tv", "--desc"]) == [66732, 1399])
            // Titles without details go last, whatever the order.
            await #expect(try ids(["--sort", "title"]) == [550, 1399, 66732, 999999])
            await #expect(try ids(["--sort", "title", "--desc"]) == [66732, 1399, 550, 999999])
            await #expect(try ids(["--sort", "release", "--desc"]) == [66732, 1399, 550, 999999])
            await #expect(try ids(["--sort", "rating", "--desc"]) == [66732, 1399, 550, 999999])
            await #expect(try ids(["--genre", "Drama", "--type", "tv"]) == [1399, 66732])
            await #expect(try ids(["--genre", "Mystery", "Drama"]) == [66732])
            await #expect(try ids(["--genre", "Mystery", "Drama", "--any-genre", "--sort", "title"]) == [550, 1399, 66732])
            await #expect(try ids(["--genre", "18", "--type", "movie"]) == [550])
            await #expect(try ids(["--search", "THRONES"]) == [1399])
            await #expect(try ids(["--search", "fight", "--type", "tv"]) == [])
            await #expect(try ids(["--search", "999999"]) == [999999])

            // Genre names and titles in the account's language; search ignores case and accents.
            try await ledger.reel(["fav", "add", "movie", "389", "13"])
            try await ledger.reel(["settings", "language", "de-DE"])
            await #expect(try ids(["--search", "ZWOLF"]) == [389])
            await #expect(try ids(["--genre", "komodie"]) == [13])
            await #expect(try ids(["--genre", "Komödie", "Drama", "--any-genre", "--type", "movie"]) == [550, 389, 13])

            let text = try await ledger.reel(["saved", "--sort", "title"])
            #expect(text.status == 0)
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("#") == true && lines.first?.contains("TITLE") == true)
            #expect(lines.count == 8)  // header, six items, footer
            #expect(lines[1].contains("Die zwölf Geschworenen") && lines[1].contains("1957"))
            #expect(lines[3].contains("Forrest Gump") && lines[3].contains("Komödie"))
            #expect(lines[6].contains("(not in the catalog)") && lines[6].contains("999999"))
            #expect(lines[7].contains("6 of 6 saved") && lines[7].contains("1 without details"))
            #expect(text.stderr.contains("the sample catalog does not know 1 of these titles"))
        }
    }

    @Test(arguments: Store.allCases) func settingsShowAndChange(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            try await ledger.reel(["settings", "name", "Ann Example"], user: "ann")
            var shown = try await ledger.json(["settings"], user: "ann", schema: "settings.schema.json")
            #expect(shown["name"] as? String == "Ann Example")
            #expect(shown["language"] as? String == "en-US")
            #expect(shown["photo"] is NSNull)

            let same = try await ledger.reel(["settings", "name", "Ann Example"], user: "ann")
            #expect(same.stdout.contains("nothing to do"))
            let language = try await ledger.json(["settings", "language", "pt-BR"], user: "ann", schema: "command-result.schema.json")
            #expect(language["changed"] as? Bool == true)

            let files = temporaryDirectory("photos")
            try Data(Images.png).write(to: URL(fileURLWithPath: files + "/me.png"))
            try Data(Images.jpeg).write(to: URL(fileURLWithPath: files + "/me.dat"))  // a JPEG, whatever its name
            try Data("not an image".utf8).write(to: URL(fileURLWithPath: files + "/fake.png"))
            try Data(Images.png.prefix(40)).write(to: URL(fileURLWithPath: files + "/cut.png"))
            try Data(count: 5_000_001).write(to: URL(fileURLWithPath: files + "/big.jpg"))

            try await ledger.json(["settings", "photo", files + "/me.png"], user: "ann", schema: "command-result.schema.json")
            shown = try await ledger.json(["settings"], user: "ann", schema: "settings.schema.json")
            #expect((shown["photo"] as? [String: Any])?["contentType"] as? String == "image/png")
            try await ledger.reel(["settings", "photo", files + "/me.dat"], user: "ann")
            shown = try await ledger.json(["settings"], user: "ann", schema: "settings.schema.json")
            let photo = shown["photo"] as? [String: Any]
            #expect(photo?["contentType"] as? String == "image/jpeg")
            #expect(photo?["width"] as? Int == 3 && photo?["height"] as? Int == 2)

            let before = try await ledger.eventCount()
            try await ledger.fails(["settings", "photo", files + "/fake.png"], user: "ann", status: 64, "neither a JPEG nor a PNG")
            try await ledger.fails(["settings", "photo", files + "/cut.png"], user: "ann", status: 64, "truncated")
            try await ledger.fails(["settings", "photo", files + "/big.jpg"], user: "ann", status: 64, "the limit is 5,000,000")
            try await ledger.fails(["settings", "photo", files + "/none.png"], user: "ann", status: 66, "no such file")
            try await ledger.fails(["settings", "photo", files], user: "ann", status: 64, "is a directory")
            try await ledger.fails(["settings", "photo", files + "/me.png", "--remove"], user: "ann", status: 64, "not both")
            try await ledger.fails(["settings", "name", ""], user: "ann", status: 64, "1 to 100 characters")
            try await ledger.fails(["settings", "name", String(repeating: "x", count: 101)], user: "ann", status: 64, "1 to 100 characters")
            try await ledger.fails(["settings", "name", "tab\there"], user: "ann", status: 64, "control characters")
            try await ledger.fails(["settings", "language", "xx-XX"], user: "ann", status: 64, "not a TMDb language")
            try await ledger.fails(["settings", "language", "de-d3"], user: "ann", status: 64, "two uppercase letters")
            try await ledger.fails(["settings", "language", "de-QQ"], user: "ann", status: 64, "not an ISO 3166-1 region")
            await #expect(try ledger.eventCount() == before)

            let removed = try await ledger.reel(["settings", "photo", "--remove"], user: "ann")
            #expect(removed.stdout == "photo removed\n")
            let again = try await ledger.reel(["settings", "photo", "--remove"], user: "ann")
            #expect(again.stdout.contains("there is no photo; nothing to do"))
            let table = try await ledger.reel(["settings"], user: "ann")
            #expect(table.stdout.contains("language  pt-BR (Portuguese)"))
            #expect(table.stdout.contains("photo     (none)"))
        }
    }

    @Test(arguments: Store.allCases) func historyAndTimeTravel(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            try await ledger.reel(["fav", "add", "movie", "550"], user: "ann")  // @1 v1, @2 v2
            try await ledger.reel(["fav", "add", "movie", "603"], user: "ben")  // @3, @4 (another stream)
            try await ledger.reel(["settings", "language", "de-DE"], user: "ann")  // @5 v3
            // A fixed delay is what this checks: the events that follow are recorded at a later
            // instant than `lastTime`, so `--at lastTime` falls between them.
            try await Task.sleep(for: .milliseconds(10))
            let middle = try Harness.json(try await ledger.reel(["history", "--json"], user: "ann").stdout)
            let lastTime = ((middle["events"] as? [[String: Any]])?.last?["recordedAt"] as? String) ?? ""
            try await Task.sleep(for: .milliseconds(10))  // as above: a later instant

            try await ledger.reel(["fav", "remove", "movie", "550"], user: "ann")  // @6 v4

            let history = try await ledger.json(["history"], user: "ann", schema: "history.schema.json")
            let events = history["events"] as? [[String: Any]] ?? []
            #expect(events.map { $0["position"] as? Int } == [1, 2, 5, 6])
            #expect(events.map { $0["streamVersion"] as? Int } == [1, 2, 3, 4])
            #expect(events.allSatisfy { $0["eventId"] is String && $0["recordedAt"] is String && $0["payload"] is [String: Any] })
            #expect((events[1]["payload"] as? [String: Any])?["id"] as? Int == 550)

            let limited = try await ledger.json(["history", "--limit", "2"], user: "ann", schema: "history.schema.json")
            #expect((limited["events"] as? [[String: Any]])?.map { $0["position"] as? Int } == [5, 6])
            let text = try await ledger.reel(["history"], user: "ann")
            #expect(text.stdout.contains("added movie 550 Fight Club (1999)"))
            #expect(text.stdout.contains("switched language to de-DE (German)"))
            #expect(text.stdout.split(separator: "\n").last?.contains("removed movie 550 Fight Club (1999)") == true)

            // The same point three ways: position 5, version v3, the time of @5.
            for point in ["5", "v3", lastTime] {
                let saved = try await ledger.json(["saved", "--as-of", point], user: "ann", schema: "saved.schema.json")
                #expect((saved["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550], "\(point)")
                let settings = try await ledger.json(["settings", "--as-of", point], user: "ann", schema: "settings.schema.json")
                #expect(settings["language"] as? String == "de-DE", "\(point)")
                let past = try await ledger.json(["history", "--as-of", point], user: "ann", schema: "history.schema.json")
                #expect((past["events"] as? [Any])?.count == 3, "\(point)")
            }
            let early = try await ledger.json(["settings", "--as-of", "v2"], user: "ann", schema: "settings.schema.json")
            #expect(early["language"] as? String == "en-US")
            let now = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
            #expect((now["items"] as? [Any])?.isEmpty == true)

            try await ledger.fails(["saved", "--as-of", "2001-01-01"], user: "ann", status: 66, "had no events at 2001-01-01T23:59:59.999999Z or before")
            try await ledger.fails(["history", "--as-of", "v1"], user: "carol", status: 66, "there is no account 'carol'")
        }
    }

    @Test(arguments: Store.allCases) func accountsListsEveryHandleWithItsEvents(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann")
            try await ledger.reel(["fav", "add", "tv", "1399"], environment: ["REEL_USER": "ben"])
            let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")
            let list = accounts["accounts"] as? [[String: Any]] ?? []
            #expect(list.map { $0["user"] as? String } == ["ann", "ben"])
            #expect(list.map { $0["events"] as? Int } == [3, 2])
            #expect(list.map { $0["saved"] as? Int } == [2, 1])
            #expect(list.allSatisfy { $0["status"] as? String == "open" })
            let text = try await ledger.reel(["accounts"])
            #expect(text.stdout.hasPrefix("HANDLE"))
            #expect(text.stdout.contains("\nann     open         3      2  "))
        }
    }

    /// A first run is not a failure: with no ledger (and for a handle that has made no change),
    /// the reading commands show the empty list or the defaults, exit 0, say how to begin in one
    /// line, and make nothing; `projections rebuild` has nothing to rebuild (66).
    @Test func readCommandsOnAFreshDataDirectoryShowEmptyAndCreateNothing() async throws {
        let ledger = Ledger()
        let hint = "reel fav add \"title\""
        for (command, expected) in [(["saved"], "nothing saved yet"), (["history"], "no events yet"), (["accounts"], "no accounts yet")] {
            let out = try await ledger.reel(command, user: "ann")
            #expect(out.status == 0 && out.stdout.contains(expected) && out.stdout.contains(hint), "\(command): \(out.stdout)\(out.stderr)")
            #expect(out.stdout.split(separator: "\n").count == 1, "\(command): one line: \(out.stdout)")
        }
        let settings = try await ledger.reel(["settings"], user: "ann")
        #expect(settings.status == 0 && settings.stdout.contains("(not set)") && settings.stdout.contains("en-US (English)"), "\(settings.stdout)")
        #expect(settings.stdout.contains("the defaults: the account 'ann' has made no change yet"), "\(settings.stdout)")
        for (command, schema) in [(["saved"], "saved"), (["history"], "history"), (["settings"], "settings")] {
            let document = try await ledger.json(command, user: "ann", schema: "\(schema).schema.json")
            #expect(document["stream"] is NSNull, "\(command): \(document)")
        }
        let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")
        #expect((accounts["accounts"] as? [Any])?.isEmpty == true)
        // A point in the past of an account that never was is still not found.
        try await ledger.fails(["saved", "--as-of", "v1"], user: "ann", status: 66, "no ledger in")
        try await ledger.fails(["projections", "rebuild"], status: 66, "no ledger in")
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/ledger"))
        // In a ledger, a handle that has made no change reads the same; one deleted does not.
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        let zed = try await ledger.reel(["saved"], user: "zed")
        #expect(zed.status == 0 && zed.stdout.contains("nothing saved yet"), "\(zed.stdout)\(zed.stderr)")
        try await ledger.fails(["saved", "--as-of", "v1"], user: "zed", status: 66, "there is no account 'zed'")
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: "ann").status == 0)
        try await ledger.fails(["saved"], user: "ann", status: 66, "the account 'ann' was deleted on")
    }

    @Test func aboutNamesTheDataAndCreditsTMDB() async throws {
        let ledger = Ledger()
        let about = try await ledger.json(["about"], schema: "about.schema.json")
        #expect(about["dataDirectory"] as? String == ledger.dir)
        let text = try await ledger.reel(["about"])
        #expect(text.stdout.contains("This product uses the TMDB API but is not endorsed or certified by TMDB."))
        #expect(text.stdout.contains(ledger.dir + "/ledger"))
    }

    @Test(arguments: Store.allCases) func concurrentProcessesLoseNothing(_ store: Store) async throws {
        let ledger = try await Ledger.make(store)
        do {
            // Movies of the sample catalog (it refuses ids it does not know).
            let ids = [11, 13, 19, 73, 104, 105, 122, 128, 129]
            try await ledger.reel(["fav", "add", "movie", String(ids[0])], user: "ann")
            let statuses = await withTaskGroup(of: (Int, Int32).self) { group in
                for i in 0..<8 {
                    group.addTask { (i, (try? await ledger.reel(["fav", "add", "movie", String(ids[1 + i])], user: "ann").status) ?? -1) }
                }
                var statuses = [Int32](repeating: -1, count: 8)
                for await (i, status) in group { statuses[i] = status }
                return statuses
            }
            #expect(statuses == Array(repeating: 0, count: 8))
            let saved = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
            #expect(Set((saved["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []) == Set(ids))
            let check = try await ledger.reel(["projections", "rebuild", "--check"])
            #expect(check.status == 0, "\(check.stdout)")
        }
    }
}

@Suite struct EventSchemaTests {
    @Test func theEventSchemasAcceptAndRejectTheirExamples() async throws {
        let out = try await Harness.python("check_event_schemas.py", [])
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
    }

    @Test(arguments: LedgerCommandTests.Store.allCases) func everyPayloadWrittenMatchesItsEventSchema(_ store: LedgerCommandTests.Store) async throws {
        let ledger = try await LedgerCommandTests.Ledger.make(store)
        do {
            let files = temporaryDirectory("photo")
            try Data(Images.png).write(to: URL(fileURLWithPath: files + "/p.png"))
            for command in [
                ["fav", "add", "movie", "550"], ["fav", "add", "tv", "1399"], ["fav", "remove", "movie", "550"],
                ["settings", "name", "Zoë Example"], ["settings", "language", "pt-BR"], ["settings", "photo", files + "/p.png"],
                ["settings", "photo", "--remove"],
            ] {
                #expect(try await ledger.reel(command, user: "ann").status == 0)
            }
            let history = try Harness.json(try await ledger.reel(["history", "--json"], user: "ann").stdout)
            let events = history["events"] as? [[String: Any]] ?? []
            #expect(events.count == 8)
            for event in events {
                let type = event["type"] as? String ?? "", version = event["schemaVersion"] as? Int ?? 0
                let payload = try JSONSerialization.data(withJSONObject: event["payload"] ?? NSNull())
                let checked = try Harness.validate(String(decoding: payload, as: UTF8.self), against: "events/\(type).v\(version).schema.json")
                #expect(checked.status == 0, "\(type): \(checked.stderr)")
            }
        }
    }
}

extension LedgerHome {
    /// A new ledger on `kind`: a data directory, and for `.postgres` a new migrated database of
    /// the suite's PostgreSQL server.
    static func make(_ kind: LedgerCommandTests.Store) async throws -> LedgerHome {
        if kind == .pair { return try await make(on: try await FailoverPair.shared.value).ledger }
        return try await make(on: kind == .postgres ? try await LedgerCommandTests.postgres.value : nil)
    }
}

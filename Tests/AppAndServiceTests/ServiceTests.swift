import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// `reel serve` over real HTTP, as apps and operators meet it: the built binary on a free port
/// of loopback with its own data directory and a `fake-tmdb` behind it, called with
/// AsyncHTTPClient. Every test runs on each store: the LMDB store in the data directory, a
/// PostgreSQL store (`REEL_STORE`, a new database of a real server), and a shard map of two such
/// stores, for the service and every `reel` the test runs beside it.
@Suite(.serialized) struct ServiceTests {
    enum Store: String, CaseIterable, CustomStringConvertible, Sendable {
        /// The LMDB store in the data directory; one PostgreSQL store; a shard map of two; a
        /// primary with a synchronous standby (pg_auto_failover), by a URL naming both.
        case lmdb, postgres, shards, pair
        var description: String { rawValue }
    }

    static let postgres = Task { try await PostgresServer.started("ServiceTests") }

    /// A service over a new data directory (and a new PostgreSQL database for `.postgres`, on
    /// `server`, by default the one the suites share), with the fake TMDb behind it.
    static func service(
        _ store: Store, environment: [String: String] = [:], on server: PostgresServer? = nil
    ) async throws -> (ServiceProcess, FakeTMDbProcess) {
        let tmdb = try await offThread { try FakeTMDbProcess() }
        var home = Home(server: tmdb)
        if store == .postgres {
            let server = try await server.orShared()
            let database = try await server.createDatabase("svc_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
            home.environment["REEL_STORE"] = server.url(database: database)
            let fixed = home
            let migrated = try await fixed.reel(["store", "migrate"])
            #expect(migrated.status == 0, "\(migrated.stderr)")
        } else if store == .pair {
            let pair = try await FailoverPair.shared.value
            let database = try await pair.createDatabase("svc_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
            home.environment["REEL_STORE"] = pair.url(database: database)
            let fixed = home
            let migrated = try await fixed.reel(["store", "migrate"])
            #expect(migrated.status == 0, "\(migrated.stderr)")
        } else if store == .shards {
            // Two databases of one server are two stores: a map of two shards.
            let server = try await postgres.value
            let name = "svc_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            var urls: [String] = []
            for n in 1...2 { urls.append(server.url(database: try await server.createDatabase("\(name)_\(n)"))) }
            let map = temporaryDirectory("shards") + "/shards.json"
            try Data(
                #"{"format": "reel-shards/1", "shards": [{"name": "a", "url": "\#(urls[0])"}, {"name": "b", "url": "\#(urls[1])"}]}"#.utf8
            ).write(to: URL(fileURLWithPath: map))
            home.environment["REEL_STORE"] = map
            let fixed = home
            let migrated = try await fixed.reel(["store", "migrate"])
            #expect(migrated.status == 0, "\(migrated.stderr)")
        }
        let service = try await ServiceProcess.start(home, environment: environment)
        service.companion = tmdb
        return (service, tmdb)
    }

    @Test(arguments: Store.allCases) func healthReadyAndTheContractAreServedWithoutAToken(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        #expect(try await service.request(.GET, "/health").json()["status"] as? String == "ok")
        #expect(try await service.request(.GET, "/ready").status == 200)
        let document = try await service.request(.GET, "/openapi.json")
        #expect(document.status == 200)
        #expect(try document.json()["openapi"] as? String == "3.1.0")
        let health = try await service.request(.GET, "/health")
        #expect(health.header("X-Request-Id")?.isEmpty == false)
        // The request log's numbers are numbers: a status to compare, a duration to sum.
        let requests = service.logText.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["message"] as? String == "request" }
        #expect(requests.count >= 4, "\(service.logText)")
        for line in requests {
            #expect(line["status"] is Int && !(line["status"] is String) && (line["durationMs"] as? Double ?? -1) >= 0, "\(line)")
        }
    }

    @Test(arguments: Store.allCases) func noTokenABadOneAndARevokedOneAre401WithAChallenge(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        for bad in [nil, "reel_" + String(repeating: "A", count: 43), "not a token", String(token.dropLast()) + "x"] {
            let answer = try await service.request(.GET, "/v1/saved", token: bad)
            #expect(answer.status == 401, "\(String(describing: bad)): \(answer.text)")
            #expect(answer.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(try answer.json()["kind"] as? String == "unauthorized")
        }
        #expect(try await service.request(.GET, "/v1/saved", token: token).status == 200)
        let list = try await service.reel(["token", "list", "--json"])
        let id = Harness.tokens(list.stdout)?.first?["id"] as? String ?? ""
        #expect(try await service.reel(["token", "revoke", id]).status == 0)
        #expect(try await service.request(.GET, "/v1/saved", token: token).status == 401, "a token revoked by another process")
        #expect(!service.logText.contains(token), "the token reached the log")
    }

    @Test(arguments: Store.allCases) func aTokenReachesItsOwnAccountOnly(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let ana = try await service.token(for: "ana")
        let ben = try await service.token(for: "ben")
        #expect(try await service.request(.POST, "/v1/favorites", token: ana, json: ["mediaType": "movie", "id": 550]).status == 201)
        let bens = try await service.request(.GET, "/v1/saved", token: ben).json()
        #expect(bens["user"] as? String == "ben")
        #expect((bens["items"] as? [Any])?.isEmpty == true)
        // Removing "the same" title as ben changes ben's list only.
        let removed = try await service.request(.DELETE, "/v1/favorites/movie/550", token: ben).json()
        #expect(removed["changed"] as? Bool == false)
        let anas = try await service.request(.GET, "/v1/saved", token: ana).json()
        #expect((anas["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550])
        // Operator routes are not an account's.
        #expect(try await service.request(.GET, "/v1/admin/accounts", token: ana).status == 401)
    }

    @Test(arguments: Store.allCases) func aRetriedAddWithItsIdempotencyKeyAppendsOnce(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        let key = ["Idempotency-Key": "add-550-first"]
        let first = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550], headers: key)
        #expect(first.status == 201, "\(first.text)")
        _ = try await service.request(.DELETE, "/v1/favorites/movie/550", token: token)
        let retry = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550], headers: key)
        #expect(retry.status == 201, "a retry answers as the original did: \(retry.text)")
        #expect(try retry.json()["replayed"] as? Bool == true)
        let positions = { (answer: ServiceProcess.Answer) throws -> [Int] in
            (try answer.json()["appended"] as? [[String: Any]] ?? []).compactMap { $0["position"] as? Int }
        }
        #expect(try positions(retry) == positions(first))
        let saved = try await service.request(.GET, "/v1/saved", token: token).json()
        #expect((saved["items"] as? [Any])?.isEmpty == true, "the retry of an add after a remove must not add again")
        let history = try await service.request(.GET, "/v1/history", token: token).json()
        #expect((history["events"] as? [[String: Any]])?.map { $0["type"] as? String } == ["account-opened", "favorite-added", "favorite-removed"])
    }

    @Test(arguments: Store.allCases) func theSavedListIsHydratedFilteredSortedAndReadAsOfAPoint(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        for (type, id) in [("movie", 550), ("movie", 603), ("tv", 1399)] {
            #expect(try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": type, "id": id]).status == 201)
        }
        let all = try await service.request(.GET, "/v1/saved", token: token).json()
        let items = all["items"] as? [[String: Any]] ?? []
        #expect(items.map { $0["id"] as? Int } == [550, 603, 1399])
        #expect(items.first?["title"] as? String == "Fight Club")
        let movies = try await service.request(.GET, "/v1/saved?type=movie&sort=title", token: token).json()
        #expect((movies["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Fight Club", "The Matrix"])
        let past = try await service.request(.GET, "/v1/saved?asOf=v2", token: token).json()
        #expect((past["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550])
        let bad = try await service.request(.GET, "/v1/saved?sort=loudness", token: token)
        #expect(bad.status == 400)
        #expect(try bad.json()["kind"] as? String == "usage")
    }

    /// The saved list is answered again from what the service kept while it holds, with an ETag
    /// (304 when the client has it); a change made by another process (`reel fav add` from the
    /// shell), or through the service, is in the very next answer.
    @Test(arguments: Store.allCases) func theSavedListCarriesAnETagAndSeesTheShellsChangesAtOnce(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        #expect(try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550]).status == 201)
        let first = try await service.request(.GET, "/v1/saved", token: token)
        let etag = try #require(first.header("ETag"))
        #expect(etag.range(of: #"^"[0-9a-f]{32}"$"#, options: .regularExpression) != nil)
        #expect(first.header("Cache-Control") == "private, no-cache")
        let again = try await service.request(.GET, "/v1/saved", token: token)
        #expect(again.header("ETag") == etag)
        #expect(again.body == first.body)
        let unchanged = try await service.request(.GET, "/v1/saved", token: token, headers: ["If-None-Match": "\"0000\", \(etag)"])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        #expect(unchanged.header("ETag") == etag)
        #expect(try await service.request(.GET, "/v1/saved", token: token, headers: ["If-None-Match": "\"0000\""]).status == 200)

        // Another process changes the account: the next answer has it, with another ETag.
        #expect(try await service.reel(["fav", "add", "movie", "603", "--user", "ana"]).status == 0)
        let afterShell = try await service.request(.GET, "/v1/saved", token: token, headers: ["If-None-Match": etag])
        #expect(afterShell.status == 200)
        #expect((try afterShell.json()["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550, 603])
        let shellTag = try #require(afterShell.header("ETag"))
        #expect(shellTag != etag)
        #expect(try await service.reel(["fav", "remove", "movie", "550", "--user", "ana"]).status == 0)
        let afterRemove = try await service.request(.GET, "/v1/saved", token: token)
        #expect((try afterRemove.json()["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [603])

        // And through the service; a past list keeps its own answer.
        #expect(try await service.request(.DELETE, "/v1/favorites/movie/603", token: token).status == 200)
        #expect((try await service.request(.GET, "/v1/saved", token: token).json()["count"] as? Int) == 0)
        #expect((try await service.request(.GET, "/v1/saved?asOf=v2", token: token).json()["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550])
        // The shell's rename is in the next settings too.
        #expect(try await service.reel(["settings", "name", "Ana B", "--user", "ana"]).status == 0)
        #expect(try await service.request(.GET, "/v1/settings", token: token).json()["name"] as? String == "Ana B")
    }

    @Test(arguments: Store.allCases) func settingsNameLanguageAndPhotoWithTheCommandsLimits(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        #expect(try await service.request(.PUT, "/v1/settings/name", token: token, json: ["name": "Ana María"]).status == 200)
        #expect(try await service.request(.PUT, "/v1/settings/language", token: token, json: ["language": "fr"]).status == 200)
        let photo = try await service.request(.PUT, "/v1/settings/photo", token: token, body: Images.png, contentType: "image/png")
        #expect(photo.status == 200, "\(photo.text)")
        let settings = try await service.request(.GET, "/v1/settings", token: token).json()
        #expect(settings["name"] as? String == "Ana María")
        #expect(settings["language"] as? String == "fr")
        #expect((settings["photo"] as? [String: Any])?["contentType"] as? String == "image/png")
        let notAPhoto = try await service.request(.PUT, "/v1/settings/photo", token: token, body: Array("hello".utf8), contentType: "image/png")
        #expect(notAPhoto.status == 400)
        let huge = try await service.request(.PUT, "/v1/settings/photo", token: token, body: [UInt8](repeating: 0xFF, count: 5_000_001), contentType: "image/jpeg")
        #expect(huge.status == 413, "\(huge.text)")
        let badLanguage = try await service.request(.PUT, "/v1/settings/language", token: token, json: ["language": "xx-!!"])
        #expect(badLanguage.status == 400)
        let log = service.logText
        #expect(!log.contains("Ana María") && !log.contains(token), "a name or token in the log")
    }

    @Test(arguments: Store.allCases) func exportIsStreamedAndImportRestoresIt(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let ana = try await service.token(for: "ana")
        _ = try await service.request(.POST, "/v1/favorites", token: ana, json: ["mediaType": "movie", "id": 550])
        let export = try await service.request(.GET, "/v1/export", token: ana)
        #expect(export.status == 200)
        #expect(export.header("Content-Disposition")?.contains("attachment") == true)
        let file = temporaryDirectory("served-export") + "/ana.json"
        try Data(export.body).write(to: URL(fileURLWithPath: file))
        #expect(try await service.reel(["account", "verify-export", file]).status == 0, "the served export verifies")
        let csv = try await service.request(.GET, "/v1/export?format=letterboxd", token: ana)
        #expect(csv.text.contains("550"))

        let ben = try await service.token(for: "ben")
        let list = "tmdbID,Title\n603,The Matrix\n"
        let imported = try await service.request(.POST, "/v1/import?format=letterboxd", token: ben, body: Array(list.utf8), contentType: "text/csv")
        #expect(imported.status == 200, "\(imported.text)")
        let bens = try await service.request(.GET, "/v1/saved", token: ben).json()
        #expect((bens["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [603])
    }

    @Test(arguments: Store.allCases) func deletingTheAccountShredsItAndEndsItsToken(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        _ = try await service.request(.PUT, "/v1/settings/name", token: token, json: ["name": "Ana"])
        let deleted = try await service.request(.DELETE, "/v1/account", token: token)
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect(try await service.request(.GET, "/v1/saved", token: token).status == 401)
        let audit = try await service.reel(["audit", "verify"])
        #expect(audit.status == 0, "the chain verifies after deletion: \(audit.stderr)")
    }

    @Test(arguments: Store.allCases) func eventsStreamLiveIncludingTheShellsAndResumeWithNothingMissedOrRepeated(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        _ = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550])
        let firstOpen = EventsSeen()
        async let firstSeen = service.events("/v1/events", token: token, seen: firstOpen) { $0.count >= 4 }
        try await firstOpen.waitFor(2)  // the backlog: account-opened, favorite-added
        _ = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 603])
        // A change made from the shell, by another process on the same data directory.
        #expect(try await service.reel(["fav", "add", "movie", "13", "--user", "ana"]).status == 0)
        let first = try await firstSeen
        #expect(first.map(\.id) == ["1", "2", "3", "4"], "\(first)")
        #expect(first.map(\.event) == ["account-opened", "favorite-added", "favorite-added", "favorite-added"])
        #expect(try first[3].json()["payload"] as? [String: Any] != nil)

        // Dropped after 2: resumes at 3 with nothing missed or repeated, then live again.
        _ = try await service.request(.DELETE, "/v1/favorites/movie/550", token: token)
        let resumedOpen = EventsSeen()
        async let resumed = service.events("/v1/events", token: token, lastEventID: "2", seen: resumedOpen) { $0.count >= 4 }
        try await resumedOpen.waitFor(3)  // the backlog: 3, 4 and 5
        _ = try await service.request(.PUT, "/v1/settings/language", token: token, json: ["language": "de"])
        let rest = try await resumed
        #expect(rest.map(\.id) == ["3", "4", "5", "6"], "\(rest)")
        #expect(rest.last?.event == "language-switched")
    }

    /// An account moved to another shard (`reel store move`) under an open event stream: the
    /// stream gives `account-moved-out` and ends, rather than wait for events that will never come
    /// to that shard; resumed after it, it is served from the account's new shard, live.
    @Test func anEventStreamEndsWhenItsAccountMovesAndResumesOnItsNewShard() async throws {
        let maps = try await ShardMapFiles(
            try await Self.postgres.value, prefix: "svc_move_" + String(UInt32.random(in: 0...UInt32.max), radix: 36), databases: 3)
        let (two, three) = (try maps.map(2), try maps.map(3))
        let tmdb = try await offThread { try FakeTMDbProcess() }
        var home = Home(server: tmdb)
        home.environment["REEL_STORE"] = two
        let atTwo = home
        #expect(try await atTwo.reel(["store", "migrate"]).status == 0)
        // A handle whose home the grown map makes the new shard.
        var mover: String?
        for n in 0..<60 where mover == nil {
            let out = try await atTwo.reel(["store", "shard", "--handle", "user\(n)", "--store", three])
            if out.stdout.hasPrefix("c ") { mover = "user\(n)" }
        }
        let handle = try #require(mover)
        #expect(try await atTwo.reel(["fav", "add", "movie", "550", "--user", handle]).status == 0)
        home.environment["REEL_STORE"] = three
        let atThree = home
        #expect(try await atThree.reel(["store", "migrate"]).status == 0)
        let service = try await ServiceProcess.start(home)
        service.companion = tmdb
        let token = try await service.token(for: handle)

        let started = Date()
        let open = EventsSeen()
        async let streamed = service.events("/v1/events", token: token, timeout: 40, seen: open) { _ in false }
        try await open.waitFor(2)  // the backlog: account-opened, favorite-added
        let moved = try await service.reel(["store", "move", "--handle", handle])
        #expect(moved.status == 0, "\(moved)")
        let before = try await streamed
        #expect(before.map(\.event) == ["account-opened", "favorite-added", "account-moved-out"], "\(before)")
        #expect(Date().timeIntervalSince(started) < 30, "the stream did not end")

        let last = try #require(before.last?.id)
        let resumedOpen = EventsSeen()
        async let resumed = service.events("/v1/events", token: token, lastEventID: last, seen: resumedOpen) { $0.count >= 1 }
        try await resumedOpen.waitFor(0)  // no backlog after the departure: open is caught up
        let changed = try await service.request(.PUT, "/v1/settings/language", token: token, json: ["language": "de"])
        #expect(changed.status == 200)
        let after = try await resumed
        // The arrival (`account-moved-in`) has the version the departure had on the other
        // shard: resumed after the departure, the next event is the first change after the move.
        #expect(after.map(\.event) == ["language-switched"] && after.first?.id == String((Int(last) ?? 0) + 1), "\(after)")
    }

    /// PostgreSQL crashes and comes back under a running service: the next requests are
    /// answered, an open event stream goes on with nothing missed (the service's own append and
    /// a shell's), and the service still stops on SIGTERM.
    ///
    /// On a server of its own: the suites beside it (`ServiceAttackTests`) share the other, and a
    /// crash of that one failed their requests ("the database system is not yet accepting
    /// connections").
    @Test func aStoreRestartIsRiddenOutWithNothingMissed() async throws {
        let server = try await PostgresServer.started()
        let (service, _) = try await Self.service(.postgres, on: server)
        let token = try await service.token(for: "ana")
        #expect(try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550]).status == 201)
        let open = EventsSeen()
        async let seen = service.events("/v1/events", token: token, timeout: 60, seen: open) { $0.count >= 4 }
        try await open.waitFor(2)  // the backlog: account-opened, favorite-added
        try await server.crashAndRestart()
        let saved = try await service.request(.GET, "/v1/saved", token: token)
        #expect(saved.status == 200, "the first request after the restart: \(saved.status) \(saved.text)")
        #expect(try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 603]).status == 201)
        #expect(try await service.reel(["fav", "add", "movie", "13", "--user", "ana"]).status == 0)
        let events = try await seen
        #expect(events.map(\.id) == ["1", "2", "3", "4"], "\(events)")
        #expect(try await service.stopped() == 0, "the service stops on SIGTERM after the restart")
    }

    @Test(arguments: Store.allCases) func operatorsListAccountsVerifyAndRebuildWithProgress(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        _ = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550])
        let op = ServiceProcess.operatorToken
        #expect(try await service.request(.GET, "/v1/admin/accounts").status == 401)
        let accounts = try await service.request(.GET, "/v1/admin/accounts", token: op).json()
        #expect((accounts["accounts"] as? [[String: Any]])?.map { $0["user"] as? String } == ["ana"])
        let tokens = try await service.request(.GET, "/v1/admin/tokens", token: op)
        #expect(tokens.status == 200)
        #expect(!tokens.text.contains(token), "the operator sees token ids, never secrets")
        let verify = try await service.request(.POST, "/v1/admin/audit/verify", token: op).json()
        #expect(verify["ok"] as? Bool == true)
        #expect(verify["events"] as? Int == 2)
        var request = [String: String]()
        request["Accept"] = "text/event-stream"
        let rebuild = try await service.request(.POST, "/v1/admin/projections/rebuild", token: op, headers: request)
        let events = rebuild.text.components(separatedBy: "\n\n").compactMap(ServerSentEvent.init)
        #expect(events.contains { $0.event == "progress" })
        #expect(events.last?.event == "result", "\(rebuild.text)")
        if store == .shards {
            // Every shard verified and rebuilt, each named; one checkpoint of both heads.
            let shards = verify["shards"] as? [[String: Any]] ?? []
            #expect(shards.map { $0["name"] as? String } == ["a", "b"] && (verify["checkpoint"] as? String)?.count == 64, "\(verify)")
            #expect(shards.allSatisfy { ($0["misplaced"] as? [Any])?.isEmpty == true })
            #expect(events.contains { $0.event == "progress" && $0.data.contains(#""shard""#) }, "\(rebuild.text)")
            let result = try JSONSerialization.jsonObject(with: Data((events.last?.data ?? "").utf8)) as? [String: Any]
            #expect((result?["shards"] as? [[String: Any]])?.map { $0["name"] as? String } == ["a", "b"], "\(rebuild.text)")
        }
        let metrics = try await service.request(.GET, "/metrics", token: op)
        #expect(metrics.text.contains("reel_http_requests_total"))
        #expect(try await service.request(.GET, "/metrics").status == 401)
    }

    /// One JSON form per report (`ReportJSON`): what `reel ... --json` prints and what the service
    /// answers are the same document for a read of the same state, and the same shape for a change.
    @Test func theCommandLineAndTheServiceAnswerOneReportWithOneDocument() async throws {
        let (service, _) = try await Self.service(.lmdb)
        let token = try await service.token(for: "ana")
        let added = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550]).json()
        let command = try await service.reel(["fav", "add", "movie", "603", "--user", "ana", "--json"])
        #expect(command.status == 0, "\(command.stderr)")
        #expect(Self.shape(added) == Self.shape(try Harness.json(command.stdout)), "\(added)\n\(command.stdout)")

        let op = ServiceProcess.operatorToken
        let pairs: [(arguments: [String], method: HTTPMethod, path: String, token: String)] = [
            (["saved", "--user", "ana"], .GET, "/v1/saved", token), (["history", "--user", "ana"], .GET, "/v1/history", token),
            (["settings", "--user", "ana"], .GET, "/v1/settings", token), (["accounts"], .GET, "/v1/admin/accounts", op),
            (["audit", "verify"], .POST, "/v1/admin/audit/verify", op), (["token", "list"], .GET, "/v1/admin/tokens", op),
            (["show", "movie", "550", "--user", "ana", "--no-poster"], .GET, "/v1/catalog/movie/550", token),
            (["movies", "--genre", "18", "--user", "ana"], .GET, "/v1/catalog/movie?genre=18", token),
            (["search", "matrix", "--type", "movie", "--user", "ana"], .GET, "/v1/search?q=matrix&kind=movie", token),
        ]
        for pair in pairs {
            let printed = try await service.reel(pair.arguments + ["--json"])
            #expect(printed.status == 0, "\(pair.arguments): \(printed.stderr)")
            let answered = try await service.request(pair.method, pair.path, token: pair.token).json()
            #expect(NSDictionary(dictionary: try Harness.json(printed.stdout)) == NSDictionary(dictionary: answered), "\(pair.arguments) ≠ \(pair.path)")
        }
    }

    /// A JSON value's shape: an object's keys, each with its value's shape; an array's first
    /// item's; a scalar's type (null as itself: a key a face leaves out is a different shape).
    static func shape(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]: "{" + object.keys.sorted().map { "\($0):\(shape(object[$0]!))" }.joined(separator: ",") + "}"
        case let array as [Any]: "[" + (array.first.map(shape) ?? "") + "]"
        case is NSNull: "null"
        case is String: "string"
        default: "scalar"
        }
    }

    @Test(arguments: Store.allCases) func operatorRoutesAreOffWithoutAnOperatorToken(_ store: Store) async throws {
        let (service, _) = try await Self.service(store, environment: ["REEL_OPERATOR_TOKEN": ""])
        #expect(try await service.request(.GET, "/v1/admin/accounts", token: ServiceProcess.operatorToken).status == 404)
    }

    @Test(arguments: Store.allCases) func badRequestsAreProblemsWithTheCommandsKinds(_ store: Store) async throws {
        let (service, _) = try await Self.service(store)
        let token = try await service.token(for: "ana")
        let notJSON = try await service.request(.POST, "/v1/favorites", token: token, body: Array("{oops".utf8), contentType: "application/json")
        #expect(notJSON.status == 400)
        let deep = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        let tooDeep = try await service.request(.POST, "/v1/favorites", token: token, body: Array(deep.utf8), contentType: "application/json")
        #expect(tooDeep.status == 400)
        #expect(try tooDeep.json()["detail"] as? String == "the JSON body is nested deeper than 8 levels")
        let big = try await service.request(.POST, "/v1/favorites", token: token, body: [UInt8](repeating: 0x20, count: 70_000), contentType: "application/json")
        #expect(big.status == 413)
        let unknown = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 999_999_999])
        #expect(unknown.status == 404, "\(unknown.text)")
        #expect(try unknown.json()["kind"] as? String == "notFound")
        let nowhere = try await service.request(.GET, "/v2/nothing")
        #expect(nowhere.status == 404)
        #expect(nowhere.header("Content-Type") == "application/problem+json")
    }
}

extension PostgresServer? {
    /// This server, or the one the service suites share (`ServiceTests.postgres`).
    func orShared() async throws -> PostgresServer {
        if let self { return self }
        return try await ServiceTests.postgres.value
    }
}

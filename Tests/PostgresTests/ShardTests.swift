@_spi(Stores) import EventLog
import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Two shards on two real PostgreSQL servers, with accounts on both: `reel store migrate` and
/// `reel audit verify` over the shard map (each chain, each stream on the shard the map places it
/// on, one checkpoint of all the heads), a misplaced stream and a damaged shard each caught, the
/// projections rebuilt and checked on every shard, and every command on one account routed to
/// its handle's home shard.
@Suite struct ShardTests {
    // Old WAL is not recycled, so a destroyed key can be purged from the files (`postgres-layout.md`).
    static let one = Task { try await PostgresServer.started("ShardTests-one") }
    static let two = Task { try await PostgresServer.started("ShardTests-two") }

    /// Runs `reel` over the store `map`, with a new data directory (for the response cache) unless
    /// one is given (tokens are kept in it).
    static func reel(_ arguments: [String], _ map: String, dataDirectory: String? = nil, environment: [String: String] = [:]) async throws -> Harness.Output {
        let out = try await Harness.reel(arguments + ["--store", map, "--data-dir", dataDirectory ?? temporaryDirectory("cache")], environment: environment)
        #expect(!out.stdout.contains(PostgresServer.password) && !out.stderr.contains(PostgresServer.password), "the password was printed")
        return out
    }

    static func append(_ url: String, stream: String, count: Int) async throws {
        let out = try await Harness.run(
            Harness.binaries + "/reel-bench",
            ["worker", "--store", url, "--data-dir", temporaryDirectory("worker"), "--stream", stream, "--count", "\(count)", "--concurrency", "2"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    /// A new database named `database` on each server, and a map naming them shards "one" and
    /// "two": their URLs and the map's path.
    static func shardMap(_ servers: [PostgresServer], database: String) async throws -> (urls: [String], map: String) {
        var urls: [String] = []
        for server in servers { urls.append(server.url(database: try await server.createDatabase(database))) }
        let map = temporaryDirectory("map-\(database)") + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "one", "url": "\#(urls[0])"}, {"name": "two", "url": "\#(urls[1])"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: map))
        return (urls, map)
    }

    /// A map of the two shards `urls` grown by a third shard, `url`, at its end: its path.
    static func grown(_ urls: [String], by url: String, name: String) throws -> String {
        let path = temporaryDirectory(name) + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "one", "url": "\#(urls[0])"}, {"name": "two", "url": "\#(urls[1])"}, {"name": "three", "url": "\#(url)"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func twoShardsWithAccountsOnBothVerifyToOneCheckpoint() async throws {
        let servers = [try await Self.one.value, try await Self.two.value]
        let (urls, map) = try await Self.shardMap(servers, database: "shard")

        let migrated = try await Self.reel(["store", "migrate", "--json"], map)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try Harness.validate(migrated.stdout, against: "cli/store-migrate-shards.schema.json").status == 0)

        // Streams placed on each shard, by the map.
        var placed: [String: [String]] = ["one": [], "two": []]
        for n in 0..<40 where placed.values.contains(where: { $0.count < 3 }) {
            let stream = "account-\(n)"
            let out = try await Self.reel(["store", "shard", stream, "--json"], map)
            #expect(try Harness.validate(out.stdout, against: "cli/store-shard.schema.json").status == 0)
            let shard = try Harness.json(out.stdout)["shard"] as? String ?? "?"
            if placed[shard, default: []].count < 3 { placed[shard, default: []].append(stream) }
        }
        #expect(placed["one"]?.count == 3 && placed["two"]?.count == 3, "\(placed)")
        for (index, name) in ["one", "two"].enumerated() {
            for stream in placed[name] ?? [] { try await Self.append(urls[index], stream: stream, count: 20) }
        }

        let verified = try await Self.reel(["audit", "verify", "--json"], map)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(try Harness.validate(verified.stdout, against: "audit-verify-shards.schema.json").status == 0)
        let report = try Harness.json(verified.stdout)
        let shards = report["shards"] as? [[String: Any]] ?? []
        #expect(report["ok"] as? Bool == true && report["events"] as? Int == 120 && shards.map { $0["events"] as? Int } == [60, 60], "\(report)")
        let checkpoint = try #require(report["checkpoint"] as? String)
        let text = try await Self.reel(["audit", "verify"], map)
        #expect(text.stdout.hasSuffix("all 2 shards intact: 120 events; checkpoint \(checkpoint)\n"), "\(text.stdout)")
        #expect(try await Self.reel(["audit", "verify", "--expect-head", checkpoint], map).status == 0)

        // One more event on one shard: a new checkpoint, and the recorded one no longer matches.
        try await Self.append(urls[1], stream: placed["two"]![0], count: 1)
        let moved = try await Self.reel(["audit", "verify", "--json", "--expect-head", checkpoint], map)
        #expect(moved.status == 65, "\(moved)")
        #expect(try Harness.json(moved.stdout)["expectedCheckpoint"] as? String == checkpoint)

        // A stream written to the wrong shard is caught, named.
        let stray = (0..<40).map { "stray-\($0)" }
        var wrong: String?
        for stream in stray where wrong == nil {
            let out = try await Self.reel(["store", "shard", stream], map)
            if out.stdout.hasPrefix("two ") { wrong = stream }
        }
        let misplaced = try #require(wrong)
        try await Self.append(urls[0], stream: misplaced, count: 2)
        let caught = try await Self.reel(["audit", "verify", "--json"], map)
        #expect(caught.status == 65)
        let first = (try Harness.json(caught.stdout)["shards"] as? [[String: Any]])?.first
        #expect(first?["misplaced"] as? [String] == [misplaced] && first?["ok"] as? Bool == false, "\(caught.stdout)")

        // A damaged shard is named with its rule; the other still verifies.
        try await servers[1].psql("UPDATE reel_events SET recorded_at = 0 WHERE position = 5", database: "shard")
        let damaged = try await Self.reel(["audit", "verify"], map)
        #expect(damaged.status == 65)
        #expect(damaged.stdout.contains("shard two (postgres://postgres@127.0.0.1:\(servers[1].port)/shard): DAMAGED at position 5: index-mismatch"), "\(damaged.stdout)")

        // Commands that copy one store as a whole refuse the map, one line, 64.
        let refused = try await Self.reel(["backup", temporaryDirectory("backup") + "/copy"], map)
        #expect(refused.status == 64 && refused.stderr.contains("reel backup copies the LMDB store") && refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        let copy = try await Harness.reel(["store", "copy", "--from", map, "--to", temporaryDirectory("copy") + "/ledger"])
        #expect(copy.status == 64 && copy.stderr.contains("is a shard map: copy from or into one shard's postgres:// URL"), "\(copy)")
    }

    /// Every command on one account goes to its handle's home shard through the map: new accounts
    /// are placed there (`audit verify` finds no stream misplaced), and what one command wrote
    /// the next reads back; `accounts` and `token list` span every shard.
    @Test func commandsOnAccountsGoToTheirHandlesHomeShards() async throws {
        let servers = [try await Self.one.value, try await Self.two.value]
        let (_, map) = try await Self.shardMap(servers, database: "routed")
        #expect(try await Self.reel(["store", "migrate"], map).status == 0)

        let handles = ["ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal"]
        for handle in handles {
            let added = try await Self.reel(["fav", "add", "movie", "550", "603", "--user", handle], map)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let verified = try await Self.reel(["audit", "verify", "--json"], map)
        #expect(verified.status == 0, "\(verified.stdout)")
        let shards = try Harness.json(verified.stdout)["shards"] as? [[String: Any]] ?? []
        #expect(shards.map { ($0["misplaced"] as? [String])?.count } == [0, 0], "\(verified.stdout)")
        // Each account is one `account-opened` and two favorites; both shards hold some.
        let events = shards.compactMap { $0["events"] as? Int }
        #expect(events.reduce(0, +) == 3 * handles.count && events.allSatisfy { $0 > 0 }, "\(events)")

        // Each account is on its handle's home shard: where the map places its stream.
        let accounts = try await Self.reel(["accounts", "--json"], map)
        #expect(accounts.status == 0, "\(accounts.stderr)")
        let listed = try Harness.json(accounts.stdout)["accounts"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["user"] as? String } == handles, "\(accounts.stdout)")
        for account in listed {
            let stream = try #require(account["stream"] as? String)
            let placed = try await Self.reel(["store", "shard", stream, "--json"], map)
            let home = try Harness.json(placed.stdout)["shard"] as? String
            let holder = try await servers[home == "one" ? 0 : 1].psql("SELECT count(*) FROM reel_streams WHERE stream = '\(stream)'", database: "routed")
            #expect(holder == "1", "\(stream) is not on \(home ?? "?")")
        }

        // What one command wrote, the next reads back, through the map.
        #expect(try await Self.reel(["fav", "remove", "movie", "550", "--user", "cy"], map).status == 0)
        let saved = try await Self.reel(["saved", "--user", "cy", "--json", "--offline"], map)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect((try Harness.json(saved.stdout)["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [603], "\(saved.stdout)")
        let history = try await Self.reel(["history", "--user", "cy", "--json", "--offline"], map)
        #expect((try Harness.json(history.stdout)["events"] as? [Any])?.count == 4, "\(history.stdout)")

        // Tokens: made for an account on either shard, listed together, each with its handle.
        let tokenHome = temporaryDirectory("routed-tokens")
        for handle in ["ann", "ben"] { #expect(try await Self.reel(["token", "create", "--user", handle, "--json"], map, dataDirectory: tokenHome).status == 0) }
        let tokens = try await Self.reel(["token", "list", "--json"], map, dataDirectory: tokenHome)
        let listedTokens = Harness.tokens(tokens.stdout)
        #expect(listedTokens?.compactMap { $0["user"] as? String }.sorted() == ["ann", "ben"], "\(tokens.stdout)")

        // An export restored as a new account lands on the new handle's home shard.
        let file = temporaryDirectory("routed-export") + "/eve.json"
        #expect(try await Self.reel(["account", "export", "--user", "eve", "--out", file, "--offline", "--no-details"], map).status == 0)
        let restored = try await Self.reel(["account", "import", file, "--as", "ivy", "--offline"], map)
        #expect(restored.status == 0, "\(restored.stderr)")
        // A deletion on its shard: the account is gone, the others stay.
        #expect(try await Self.reel(["account", "delete", "--user", "dee", "--yes"], map).status == 0)
        let after = try Harness.json(try await Self.reel(["accounts", "--json"], map).stdout)["accounts"] as? [[String: Any]] ?? []
        #expect(after.filter { $0["status"] as? String == "open" }.compactMap { $0["user"] as? String } == ["ann", "ben", "cy", "eve", "fay", "gus", "hal", "ivy"])
        #expect(after.count == 9)
        let ivy = try await Self.reel(["saved", "--user", "ivy", "--json", "--offline"], map)
        #expect((try Harness.json(ivy.stdout)["items"] as? [Any])?.count == 2, "\(ivy.stdout)")

        let final = try await Self.reel(["audit", "verify", "--json"], map)
        #expect(final.status == 0, "\(final.stdout)")
        #expect((try Harness.json(final.stdout)["shards"] as? [[String: Any]])?.map { ($0["misplaced"] as? [String])?.count } == [0, 0])

        // A map that changes the shards (one added, or the order changed) would send handles to
        // shards without their accounts: commands on accounts refuse it, naming what changed.
        let urls = servers.map { $0.url(database: "routed") }
        let third = servers[0].url(database: try await servers[0].createDatabase("routed_three"))
        let grown = temporaryDirectory("routed-grown") + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "one", "url": "\#(urls[0])"}, {"name": "two", "url": "\#(urls[1])"}, {"name": "three", "url": "\#(third)"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: grown))
        // (Migrating over the grown map records the growth: `aGrownMapMovesItsAccountsHome`.)
        let swapped = temporaryDirectory("routed-swapped") + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "two", "url": "\#(urls[1])"}, {"name": "one", "url": "\#(urls[0])"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: swapped))
        // A handle whose home is the new shard is refused too: the shard has no record.
        var newcomer: String?
        for n in 0..<40 where newcomer == nil {
            let home = try await Self.reel(["store", "shard", "--handle", "new\(n)", "--json"], grown)
            #expect(try Harness.validate(home.stdout, against: "cli/store-shard.schema.json").status == 0)
            if try Harness.json(home.stdout)["shard"] as? String == "three" { newcomer = "new\(n)" }
        }
        let onThree = try #require(newcomer)
        for changed in [grown, swapped] {
            for handle in handles + [onThree] {
                let refused = try await Self.reel(["fav", "add", "movie", "13", "--user", handle], changed)
                if changed == grown && handle == onThree {
                    // Not even migrated: its schema is missing.
                    #expect(refused.status == 69 && refused.stderr.contains("run 'reel store migrate' first"), "\(refused)")
                } else if changed == grown {
                    #expect(refused.status == 64 && refused.stderr.contains("but the map \(grown) has 3 shards: run 'reel store migrate --store \(grown)' to record the shards added"), "\(handle): \(refused)")
                } else {
                    #expect(refused.status == 64 && refused.stderr.contains("use the map the shards were made with"), "\(handle): \(refused)")
                }
                #expect(refused.stderr.split(separator: "\n").count == 1)
            }
        }
        #expect(try await Self.reel(["store", "migrate"], swapped).status == 64)
        // Nor is a ledger verified through them: a shard left out or put in another's place would
        // go unchecked under a report of "intact".
        for changed in [grown, swapped] {
            let verified = try await Self.reel(["audit", "verify"], changed)
            #expect(verified.status == 64 && verified.stdout.isEmpty && verified.stderr.split(separator: "\n").count == 1, "\(verified)")
        }
        // Names are for people: renamed in the map, the shards still serve (placement is by
        // number and order).
        let renamed = temporaryDirectory("routed-renamed") + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "uno", "url": "\#(urls[0])"}, {"name": "dos", "url": "\#(urls[1])"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: renamed))
        for handle in ["ann", onThree] {
            let added = try await Self.reel(["fav", "add", "movie", "13", "--user", handle], renamed)
            #expect(added.status == 0, "\(handle): \(added.stderr)")
        }
        // Nothing was written through the changed maps; the map they were made with still serves.
        let renamedVerify = try await Self.reel(["audit", "verify", "--json"], renamed)
        let before = try Harness.json(final.stdout)["events"] as? Int ?? 0
        let renamedEvents = try Harness.json(renamedVerify.stdout)["events"] as? Int
        #expect(renamedVerify.status == 0 && renamedEvents == before + 3, "\(renamedVerify.stdout)")
        #expect(try await servers[0].psql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'reel_%'", database: "routed_three") == "0")
        #expect(try await Self.reel(["saved", "--user", "ann", "--offline"], map).status == 0)
    }

    /// A shard that cannot be reached fails only the commands routed to it (69, one line naming
    /// its store); accounts on the other shard are served as before.
    @Test func aShardDownFailsOnlyItsOwnAccounts() async throws {
        let server = try await Self.one.value
        let up = server.url(database: try await server.createDatabase("half_up"))
        let later = server.url(database: try await server.createDatabase("half_down"))
        let map = temporaryDirectory("half") + "/shards.json"
        // Made with both shards up; then the second's server goes away (its URL now names a
        // port nothing listens on).
        // The first shard is the one down: no command needs it but those routed to it.
        for url in [later, "postgres://postgres@127.0.0.1:1/gone"] {
            try Data(
                #"{"format": "reel-shards/1", "shards": [{"name": "down", "url": "\#(url)"}, {"name": "up", "url": "\#(up)"}]}"#.utf8
            ).write(to: URL(fileURLWithPath: map))
            if url == later {
                let migrated = try await Self.reel(["store", "migrate"], map)
                #expect(migrated.status == 0 && migrated.stdout.contains("; recorded as shard 2 of 2\n"), "\(migrated)")
            }
        }
        var homes: [String: String] = [:]
        for n in 0..<20 where homes.count < 2 {
            let home = try await Self.reel(["store", "shard", "--handle", "user\(n)", "--json"], map)
            let shard = try Harness.json(home.stdout)["shard"] as? String ?? "?"
            if homes[shard] == nil { homes[shard] = "user\(n)" }
        }
        let (onUp, onDown) = (try #require(homes["up"]), try #require(homes["down"]))
        let added = try await Self.reel(["fav", "add", "movie", "550", "--user", onUp], map)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await Self.reel(["saved", "--user", onUp, "--offline"], map).status == 0)
        for arguments in [["fav", "add", "movie", "550", "--user", onDown], ["saved", "--user", onDown], ["accounts"]] {
            let failed = try await Self.reel(arguments, map)
            #expect(failed.status == 69 && failed.stderr.hasPrefix("reel: the store postgres://postgres@127.0.0.1:1/gone cannot be reached"), "\(arguments): \(failed)")
            #expect(failed.stderr.split(separator: "\n").count == 1)
        }
    }

    /// A map is recorded only over shards filled under it: a shard with no record that holds a
    /// stream the map places elsewhere (written through its own URL) refuses the map, and no
    /// shard records it.
    @Test func aMapIsNotRecordedOverShardsFilledUnderAnother() async throws {
        let server = try await Self.two.value
        let urls = [
            server.url(database: try await server.createDatabase("unmapped_1")), server.url(database: try await server.createDatabase("unmapped_2")),
        ]
        let map = temporaryDirectory("unmapped") + "/shards.json"
        try Data(
            #"{"format": "reel-shards/1", "shards": [{"name": "one", "url": "\#(urls[0])"}, {"name": "two", "url": "\#(urls[1])"}]}"#.utf8
        ).write(to: URL(fileURLWithPath: map))
        for url in urls { #expect(try await Harness.reel(["store", "migrate", "--store", url]).status == 0) }
        var elsewhere: String?
        for n in 0..<40 where elsewhere == nil {
            let out = try await Self.reel(["store", "shard", "account-\(n)"], map)
            if out.stdout.hasPrefix("two ") { elsewhere = "account-\(n)" }
        }
        let stream = try #require(elsewhere)
        try await Self.append(urls[0], stream: stream, count: 3)
        let refused = try await Self.reel(["store", "migrate", "--json"], map)
        #expect(refused.status == 64 && refused.stderr.contains("holds 1 stream(s) the map \(map) places on other shards (first \(stream))"), "\(refused)")
        // Nothing recorded: commands on either shard say to migrate.
        for shard in ["one", "two"] {
            var handle: String?
            for n in 0..<40 where handle == nil {
                let home = try await Self.reel(["store", "shard", "--handle", "h\(n)"], map)
                if home.stdout.hasPrefix(shard + " ") { handle = "h\(n)" }
            }
            let out = try await Self.reel(["saved", "--user", try #require(handle)], map)
            #expect(out.status == 69 && out.stderr.contains("has no record of its place in the shard map"), "\(out)")
        }
    }

    /// `projections rebuild` over the map: every shard rebuilt, then checked; drift on one shard
    /// is reported for that shard (65 with --check), and a rebuild repairs it.
    @Test func projectionsAreRebuiltAndCheckedOnEveryShard() async throws {
        let servers = [try await Self.one.value, try await Self.two.value]
        let (urls, map) = try await Self.shardMap(servers, database: "rebuild")
        #expect(try await Self.reel(["store", "migrate"], map).status == 0)
        // Accounts on both shards: each opened and given titles through its shard's own URL.
        for (index, url) in urls.enumerated() {
            for handle in ["ann\(index)", "ben\(index)"] {
                let out = try await Harness.reel(["fav", "add", "movie", "550", "603", "--user", handle, "--store", url, "--data-dir", temporaryDirectory("rebuild-cache")])
                #expect(out.status == 0, "\(out.stderr)")
            }
        }

        let rebuilt = try await Self.reel(["projections", "rebuild", "--json"], map)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try Harness.validate(rebuilt.stdout, against: "cli/projections-rebuild-shards.schema.json").status == 0)
        let report = try Harness.json(rebuilt.stdout)
        let shards = report["shards"] as? [[String: Any]] ?? []
        #expect(report["ok"] as? Bool == true && report["swapped"] as? Bool == true && report["accounts"] as? Int == 4, "\(report)")
        #expect(shards.map { $0["name"] as? String } == ["one", "two"] && shards.map { $0["events"] as? Int } == [6, 6], "\(report)")

        let checked = try await Self.reel(["projections", "rebuild", "--check"], map)
        #expect(checked.status == 0)
        #expect(checked.stdout.hasSuffix("all 2 shards checked: 12 events, 4 accounts, no drift\n"), "\(checked.stdout)")

        // A damaged state on shard two: drift there only, 65, then repaired by a rebuild.
        try await servers[1].psql(
            "UPDATE reel_projections SET value = '\\x00' WHERE table_name LIKE 'projection-_-states' AND key = (SELECT key FROM reel_projections WHERE table_name LIKE 'projection-_-states' ORDER BY key LIMIT 1)",
            database: "rebuild")
        let drifted = try await Self.reel(["projections", "rebuild", "--check", "--json"], map)
        #expect(drifted.status == 65, "\(drifted)")
        #expect(try Harness.validate(drifted.stdout, against: "cli/projections-rebuild-shards.schema.json").status == 0)
        let found = try Harness.json(drifted.stdout)["shards"] as? [[String: Any]] ?? []
        #expect(found.map { ($0["drift"] as? [Any])?.count } == [0, 1], "\(drifted.stdout)")
        #expect(try await Self.reel(["projections", "rebuild"], map).status == 0)
        #expect(try await Self.reel(["projections", "rebuild", "--check"], map).status == 0)
    }

    /// Shards added at the end of a map: `store migrate` records the growth; every account is
    /// still found, on its home under the earlier map, and a new one lands on its new home. `store
    /// move` moves an account home with its history (the same events and times on the shard it
    /// arrives at, both shards verified, its key destroyed on the shard it left); a move killed
    /// after any step is finished by running it again; `--all` moves the rest and settles the
    /// shards. Reel's verifier and the independent one then pass on every shard.
    @Test func aGrownMapMovesItsAccountsHome() async throws {
        let servers = [try await Self.one.value, try await Self.two.value]
        let (urls, map) = try await Self.shardMap(servers, database: "grow")
        #expect(try await Self.reel(["store", "migrate"], map).status == 0)
        // The map grown by a third shard, at its end (not migrated yet).
        let third = servers[0].url(database: try await servers[0].createDatabase("grow_three"))
        let grown = try Self.grown(urls, by: third, name: "grown")
        // Four accounts whose home the third shard becomes (two from each old shard), six whose
        // home stays.
        var movers: [String] = [], stayers: [String] = [], from: [String: String] = [:]
        for n in 0..<120 where movers.count < 4 || stayers.count < 6 {
            let home = try Harness.json(try await Self.reel(["store", "shard", "--handle", "user\(n)", "--json"], grown).stdout)["shard"] as? String
            let old = try Harness.json(try await Self.reel(["store", "shard", "--handle", "user\(n)", "--json"], map).stdout)["shard"] as? String
            if home == "three" {
                if let old, from.values.filter({ $0 == old }).count < 2 {
                    movers.append("user\(n)")
                    from["user\(n)"] = old
                }
            } else if stayers.count < 6 {
                stayers.append("user\(n)")
            }
        }
        #expect(movers.count == 4 && stayers.count == 6)
        // Those from shard one first: the last (moved by --all, its purge deferred to the end of
        // the run) and one moved alone leave shard two, whose server's files are scanned below.
        movers.sort { (from[$0] ?? "", $0) < (from[$1] ?? "", $1) }
        let handles = (movers + stayers).sorted()
        for handle in handles {
            #expect(try await Self.reel(["fav", "add", "movie", "550", "603", "--user", handle], map).status == 0)
            #expect(try await Self.reel(["settings", "name", "Name of \(handle)", "--user", handle], map).status == 0)
        }
        func history(_ handle: String, _ map: String) async throws -> [[String: Any]] {
            let out = try await Self.reel(["history", "--user", handle, "--json", "--offline"], map)
            #expect(out.status == 0, "\(handle): \(out.stderr)")
            return try Harness.json(out.stdout)["events"] as? [[String: Any]] ?? []
        }
        func saved(_ handle: String, _ map: String) async throws -> [String] {
            let out = try await Self.reel(["saved", "--user", handle, "--json", "--offline"], map)
            #expect(out.status == 0, "\(handle): \(out.stderr)")
            return (try Harness.json(out.stdout)["items"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? "?") \($0["addedAt"] ?? "?")" }
        }
        var before: [String: (events: [String], saved: [String])] = [:]
        for handle in handles {
            let events = try await history(handle, map).map { "\($0["eventId"] ?? "") \($0["type"] ?? "") \($0["recordedAt"] ?? "")" }
            before[handle] = (events, try await saved(handle, map))
        }

        let migrated = try await Self.reel(["store", "migrate", "--json"], grown)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try Harness.validate(migrated.stdout, against: "cli/store-migrate-shards.schema.json").status == 0)
        #expect((try Harness.json(migrated.stdout)["shards"] as? [[String: Any]])?.map { $0["recorded"] as? Bool } == [true, true, true])
        // The map it grew from no longer serves.
        let old = try await Self.reel(["saved", "--user", "user0"], map)
        #expect(old.status == 64 && old.stderr.contains("use the map the shards were made with"), "\(old)")

        // Every account is served through the grown map, those with a new home from their old one.
        for handle in handles { #expect(try await saved(handle, grown) == before[handle]?.saved, "\(handle)") }
        let streamsOnThree = try await servers[0].psql("SELECT count(*) FROM reel_streams", database: "grow_three")
        #expect(streamsOnThree == "0")
        // The keys of the accounts that will leave shard two (on server two), as its files hold them.
        var leaving: [(handle: String, key: [UInt8])] = []
        var wrappedLeaving: [(stream: String, wrapped: [UInt8])] = []
        let sourceKeyring = KeyringFile(
            directory: Harness.keyring, store: try #require(UUID(uuidString: try await servers[1].psql("SELECT store FROM reel_keyring", database: "grow"))))
        for handle in movers where from[handle] == "two" {
            let stream = try #require(try Harness.json(try await Self.reel(["history", "--user", handle, "--json", "--offline"], grown).stdout)["stream"] as? String)
            let hex = try await servers[1].psql("SELECT encode(key, 'hex') FROM reel_stream_keys WHERE stream = '\(stream)'", database: "grow")
            let wrapped = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(hex.dropFirst($0).prefix(2), radix: 16) }
            wrappedLeaving.append((stream, wrapped))
            leaving.append((handle, try #require(try sourceKeyring.opening(wrapped, stream: stream))))
        }
        #expect(leaving.count == 2 && leaving.allSatisfy { $0.key.count == 32 })
        try await servers[1].psql("CHECKPOINT")
        #expect(try await files(holding: leaving[0].key, under: servers[1].dataDirectory).isEmpty, "a bare key is in the server's files")
        #expect(try await !files(holding: wrappedLeaving[0].wrapped, under: servers[1].dataDirectory).isEmpty, "the scan finds a live wrapped key")

        // One move killed after each of its steps, then finished by running it again.
        let tokens = temporaryDirectory("grow-tokens")
        for (handle, step) in zip(movers, ["closedOnSource", "laidOnTarget", "verified"]) {
            if step == "closedOnSource" {
                #expect(try await Self.reel(["token", "create", "--user", handle], grown, dataDirectory: tokens).status == 0)
            }
            let killed = try await Self.reel(["store", "move", "--handle", handle], grown, environment: ["REEL_FAILPOINT": "move:\(step)"])
            #expect(killed.status != 0, "\(step): \(killed)")
            if step == "laidOnTarget" {
                // The account lives on its home now, and changes there before the move is finished.
                let changed = try await Self.reel(["settings", "language", "de-DE", "--user", handle], grown)
                #expect(changed.status == 0, "\(changed)")
                before[handle]?.events.append("")
            }
            if step == "closedOnSource" {
                // Between the shards, the account refuses changes, saying how to finish the move.
                let refused = try await Self.reel(["settings", "name", "Someone", "--user", handle], grown)
                #expect(refused.status == 69 && refused.stderr.contains("run 'reel store move --handle \(handle)'"), "\(refused)")
                #expect(refused.stderr.split(separator: "\n").count == 1)
                // So is its deletion, before anything is done: its token stays live.
                let deletion = try await Self.reel(["account", "delete", "--yes", "--user", handle], grown, dataDirectory: tokens)
                #expect(deletion.status == 69 && deletion.stderr.contains("run 'reel store move --handle \(handle)'"), "\(deletion)")
                // Its token is listed meanwhile, live, with every account's and with its own.
                for arguments in [["token", "list", "--json"], ["token", "list", "--user", handle, "--json"]] {
                    let listed = try await Self.reel(arguments, grown, dataDirectory: tokens)
                    let all = Harness.tokens(listed.stdout)
                    #expect(listed.status == 0 && all?.filter { $0["user"] as? String == handle && $0["revokedAt"] is NSNull }.count == 1, "\(arguments): \(listed)")
                }
                // And its export, which could not be restored: nothing is written.
                let file = tokens + "/mid-move.json"
                let export = try await Self.reel(["account", "export", "--no-details", "--user", handle, "--out", file], grown, dataDirectory: tokens)
                #expect(export.status == 69 && export.stderr.contains("run 'reel store move --handle \(handle)'"), "\(export)")
                #expect(!FileManager.default.fileExists(atPath: file))
            }
            let finished = try await Self.reel(["store", "move", "--handle", handle, "--json"], grown)
            #expect(finished.status == 0, "\(step): \(finished)")
            #expect(try Harness.validate(finished.stdout, against: "cli/store-move.schema.json").status == 0)
            let move = (try Harness.json(finished.stdout)["moves"] as? [[String: Any]])?.first ?? [:]
            #expect(move["to"] as? String == "three" && move["resumed"] as? Bool == true && move["events"] as? Int == 4, "\(finished.stdout)")
            #expect(move["keyPurged"] as? Bool == true, "\(finished.stdout)")
            if step == "closedOnSource" {
                let listed = try await Self.reel(["token", "list", "--user", handle, "--json"], grown, dataDirectory: tokens)
                let all = Harness.tokens(listed.stdout)
                let live = all?.filter { $0["revokedAt"] is NSNull }
                #expect(live?.count == 1, "\(listed)")
            }
        }
        // Text output of a move, and of one with nothing to do.
        let again = try await Self.reel(["store", "move", "--handle", movers[0]], grown)
        #expect(again.status == 0 && again.stdout == "'\(movers[0])' is on its home shard three already; nothing to move\n", "\(again)")

        // A move whose target no longer holds what it laid is refused, the source keeping the key.
        let last = movers[3]
        let lastStream = try #require(try Harness.json(try await Self.reel(["history", "--user", last, "--json", "--offline"], grown).stdout)["stream"] as? String)
        let killed = try await Self.reel(["store", "move", "--handle", last], grown, environment: ["REEL_FAILPOINT": "move:laidOnTarget"])
        #expect(killed.status != 0)
        let flip = "UPDATE reel_events SET envelope = set_byte(envelope, length(envelope) - 1, get_byte(envelope, length(envelope) - 1) # 1) WHERE stream = '\(lastStream)' AND stream_version = 2"
        try await servers[0].psql(flip, database: "grow_three")
        let refused = try await Self.reel(["store", "move", "--handle", last], grown)
        #expect(refused.status == 65 && refused.stderr.contains("does not verify on shard three") && refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        let sourceDatabase = (from[last] == "one" ? servers[0] : servers[1])
        #expect(try await sourceDatabase.psql("SELECT count(*) FROM reel_stream_keys WHERE stream = '\(lastStream)'", database: "grow") == "1")
        try await servers[0].psql(flip, database: "grow_three")

        // The rest, with every other account on its home: the shards settled.
        let all = try await Self.reel(["store", "move", "--all", "--json"], grown)
        #expect(all.status == 0, "\(all)")
        #expect(try Harness.validate(all.stdout, against: "cli/store-move.schema.json").status == 0)
        let report = try Harness.json(all.stdout)
        #expect((report["moves"] as? [[String: Any]])?.compactMap { $0["handle"] as? String } == [movers[3]], "\(all.stdout)")
        #expect(report["settled"] as? [String] == ["one", "two", "three"], "\(all.stdout)")
        #expect((report["moves"] as? [[String: Any]])?.allSatisfy { $0["keyPurged"] as? Bool == true } == true, "\(all.stdout)")
        // Purged by the run itself (before any other process opens shard two and purges).
        try await servers[1].psql("CHECKPOINT")
        for (handle, key) in leaving { #expect(try await files(holding: key, under: servers[1].dataDirectory).isEmpty, "\(handle)'s key") }
        for (stream, wrapped) in wrappedLeaving { #expect(try sourceKeyring.opening(wrapped, stream: stream) == nil, "\(stream)'s key still opens on the shard it left") }
        let none = try await Self.reel(["store", "move", "--all"], grown)
        #expect(none.status == 0 && none.stdout == "every account is on its home shard\n", "\(none)")

        // Each account's history and saved list are as they were; a moved one's ends with its arrival.
        let threeStreams = try await servers[0].psql("SELECT count(*) FROM reel_streams", database: "grow_three")
        #expect(threeStreams == "\(movers.count)")
        for handle in handles {
            let events = try await history(handle, grown)
            let lines = events.map { "\($0["eventId"] ?? "") \($0["type"] ?? "") \($0["recordedAt"] ?? "")" }
            if movers.contains(handle) {
                // The moved events, then the arrival (and, for one, a change made after it).
                let changedSince = before[handle]?.events.last == ""
                let moved = changedSince ? Array(lines.dropLast(2)) : Array(lines.dropLast())
                #expect(moved == before[handle]?.events.filter { !$0.isEmpty }, "\(handle): \(lines)")
                let arrival = events[events.count - (changedSince ? 2 : 1)]
                #expect(arrival["type"] as? String == "account-moved-in", "\(handle)")
                if changedSince { #expect(events.last?["type"] as? String == "language-switched") }
                let payload = arrival["payload"] as? [String: Any]
                #expect(payload?["events"] as? Int == 4 && (payload?["digest"] as? String)?.count == 64, "\(handle): \(payload ?? [:])")
            } else {
                #expect(lines == before[handle]?.events, "\(handle)")
            }
            #expect(try await saved(handle, grown) == before[handle]?.saved, "\(handle)")
        }

        // No byte of the keys, the names or the handles of the accounts that left server two is
        // in its files (its other databases, WAL included): the key is on the home shard alone.
        try await servers[1].psql("CHECKPOINT")
        for (handle, key) in leaving {
            for (what, bytes) in [("key", key), ("name", Array("Name of \(handle)".utf8)), ("handle", Array(handle.utf8))] {
                let left = try await files(holding: bytes, under: servers[1].dataDirectory)
                #expect(left.isEmpty, "\(handle)'s \(what) is still in \(left)")
            }
        }
        // The key is on the home shard alone; the shard it left keeps the envelopes, closed.
        for handle in movers {
            let stream = try #require(try Harness.json(try await Self.reel(["history", "--user", handle, "--json", "--offline"], grown).stdout)["stream"] as? String)
            #expect(try await servers[0].psql("SELECT count(*) FROM reel_stream_keys WHERE stream = '\(stream)'", database: "grow_three") == "1")
            var left = 0
            for (index, server) in servers.enumerated() {
                let database = "grow"
                let rows = try await server.psql("SELECT count(*) FROM reel_streams WHERE stream = '\(stream)' AND closed_at IS NOT NULL", database: database)
                let keys = try await server.psql("SELECT count(*) FROM reel_stream_keys WHERE stream = '\(stream)'", database: database)
                #expect(keys == "0", "\(handle) keeps a key on shard \(index)")
                left += Int(rows) ?? 0
            }
            #expect(left == 1, "\(handle): closed on \(left) shards")
        }
        let accounts = try Harness.json(try await Self.reel(["accounts", "--json"], grown).stdout)["accounts"] as? [[String: Any]] ?? []
        #expect(accounts.filter { $0["status"] as? String == "open" }.compactMap { $0["user"] as? String } == handles.sorted())
        #expect(accounts.filter { $0["status"] as? String == "moved" }.count == movers.count, "\(accounts)")
        #expect(try Harness.validate(try await Self.reel(["accounts", "--json"], grown).stdout, against: "cli/accounts.schema.json").status == 0)

        // Every shard verifies, nothing misplaced, by Reel and by the independent verifier.
        let verified = try await Self.reel(["audit", "verify", "--json"], grown)
        #expect(verified.status == 0, "\(verified.stdout)")
        let shards = try Harness.json(verified.stdout)["shards"] as? [[String: Any]] ?? []
        #expect(shards.map { ($0["misplaced"] as? [String])?.count } == [0, 0, 0], "\(verified.stdout)")
        for url in urls + [third] {
            let independent = try await Harness.python("verify_ledger.py", [url])
            #expect(independent.status == 0 && independent.stdout.hasPrefix("OK "), "\(url): \(independent)")
        }
        #expect(try await Self.reel(["projections", "rebuild", "--check"], grown).status == 0)

        // An export of a moved account verifies without Reel (format-2 envelopes included).
        let export = temporaryDirectory("grown-export") + "/moved.json"
        #expect(try await Self.reel(["account", "export", "--user", movers[0], "--out", export, "--offline", "--no-details"], grown).status == 0)
        let checked = try await Harness.python("verify_export.py", [export])
        #expect(checked.status == 0, "\(checked)")

        // A moved account changes and is deleted on its home; its key is gone there too.
        let moved = movers[0]
        #expect(try await Self.reel(["fav", "remove", "movie", "550", "--user", moved], grown).status == 0)
        #expect(try await saved(moved, grown).count == 1)
        #expect(try await Self.reel(["account", "delete", "--user", moved, "--yes"], grown).status == 0)
        #expect(try await servers[0].psql("SELECT count(*) FROM reel_stream_keys", database: "grow_three") == "\(movers.count - 1)")
        #expect(try await Self.reel(["audit", "verify"], grown).status == 0)
        // A new account homed on the new shard is made there, and no lookup elsewhere finds it.
        var newcomer: String?
        for n in 0..<40 where newcomer == nil {
            let home = try await Self.reel(["store", "shard", "--handle", "late\(n)", "--json"], grown)
            if try Harness.json(home.stdout)["shard"] as? String == "three" { newcomer = "late\(n)" }
        }
        #expect(try await Self.reel(["fav", "add", "movie", "13", "--user", try #require(newcomer)], grown).status == 0)
        #expect(try await servers[0].psql("SELECT count(*) FROM reel_stream_keys", database: "grow_three") == "\(movers.count)")

        // Mistakes are one line with their exit code, never an internal error.
        for (arguments, status, message) in [
            (["store", "move", "--handle", "BAD!"], 64, "is not an account handle"), (["store", "shard", "--handle", "BAD!"], 64, "is not an account handle"),
            (["store", "move"], 64, "give --handle HANDLE, or --all"), (["store", "move", "--handle", "nobody"], 66, "there is no account 'nobody'"),
        ] {
            let out = try await Self.reel(arguments, grown)
            #expect(out.status == Int32(status) && out.stderr.contains(message) && out.stderr.split(separator: "\n").count == 1, "\(arguments): \(out)")
        }
        let noMap = try await Harness.reel(["store", "move", "--all", "--data-dir", temporaryDirectory("no-map")])
        #expect(noMap.status == 64 && noMap.stderr.contains("accounts move between the shards of a shard map"), "\(noMap)")
    }

    /// A move cut short after laying the account on its new home, where the account is then
    /// deleted: the handle cannot be opened again until the move is finished (it says how), and
    /// running the move again finishes it (the key it left on the first shard destroyed too).
    /// Tokens made before the growth are still listed with their accounts, wherever those are now.
    @Test func aMoveCutShortIsFinishedWhateverTheAccountDidSince() async throws {
        let servers = [try await Self.one.value, try await Self.two.value]
        let (urls, map) = try await Self.shardMap(servers, database: "regrow")
        #expect(try await Self.reel(["store", "migrate"], map).status == 0)
        let third = servers[1].url(database: try await servers[1].createDatabase("regrow_three"))
        let grown = try Self.grown(urls, by: third, name: "regrown")
        var movers: [String] = []
        for n in 0..<60 where movers.count < 4 {
            let home = try Harness.json(try await Self.reel(["store", "shard", "--handle", "ada\(n)", "--json"], grown).stdout)["shard"] as? String
            if home == "three" { movers.append("ada\(n)") }
        }
        let tokens = temporaryDirectory("regrow-tokens")
        for handle in movers {
            #expect(try await Self.reel(["settings", "name", "Name of \(handle)", "--user", handle], map, dataDirectory: tokens).status == 0)
            #expect(try await Self.reel(["token", "create", "--user", handle, "--json"], map, dataDirectory: tokens).status == 0)
        }
        #expect(try await Self.reel(["store", "migrate"], grown).status == 0)
        let handle = movers[0]
        let old = try #require(try Harness.json(try await Self.reel(["history", "--user", handle, "--json"], grown).stdout)["stream"] as? String)
        let source = try Harness.json(try await Self.reel(["store", "shard", "--handle", handle, "--json"], map).stdout)["shard"] as? String == "one" ? 0 : 1
        let killed = try await Self.reel(["store", "move", "--handle", handle], grown, environment: ["REEL_FAILPOINT": "move:laidOnTarget"])
        #expect(killed.status != 0)
        // Served on its new home: deleted there.
        #expect(try await Self.reel(["account", "delete", "--user", handle, "--yes"], grown).status == 0)
        let reopen = try await Self.reel(["settings", "name", "Someone new", "--user", handle], grown)
        #expect(reopen.status == 69 && reopen.stderr.contains("run 'reel store move --handle \(handle)'"), "\(reopen)")
        #expect(try await servers[source].psql("SELECT count(*) FROM reel_stream_keys WHERE stream = '\(old)'", database: "regrow") == "1")

        let finished = try await Self.reel(["store", "move", "--handle", handle, "--json"], grown)
        #expect(finished.status == 0, "\(finished)")
        let move = (try Harness.json(finished.stdout)["moves"] as? [[String: Any]])?.first ?? [:]
        #expect(move["stream"] as? String == old && move["resumed"] as? Bool == true && move["to"] as? String == "three", "\(finished.stdout)")
        #expect(try await servers[source].psql("SELECT count(*) FROM reel_stream_keys WHERE stream = '\(old)'", database: "regrow") == "0")
        #expect(try await Self.reel(["settings", "name", "Someone new", "--user", handle], grown).status == 0)
        let now = try Harness.json(try await Self.reel(["history", "--user", handle, "--json"], grown).stdout)
        #expect(now["stream"] as? String != old && (now["events"] as? [Any])?.count == 2, "\(now)")
        // Every account moved home; every token still names its account.
        #expect(try await Self.reel(["store", "move", "--all"], grown).status == 0)
        let listed = try await Self.reel(["token", "list", "--json"], grown, dataDirectory: tokens)
        let users = Harness.tokens(listed.stdout)?.compactMap { $0["user"] as? String }
        #expect(users?.sorted() == Array(movers.dropFirst()).sorted(), "\(listed)")
        #expect(try await Self.reel(["audit", "verify"], grown).status == 0)
        for url in urls + [third] {
            let independent = try await Harness.python("verify_ledger.py", [url])
            #expect(independent.status == 0, "\(url): \(independent)")
        }
    }
}

import Foundation
package import ReelTestSupport
import Testing

/// A data directory (or a PostgreSQL store, with a data directory for its cache) and a way to
/// run `reel` in it.
package struct LedgerHome {
    package let dir: String
    /// A PostgreSQL store's URL (`REEL_STORE`) when the ledger is there; `nil`: the LMDB store
    /// in `dir`.
    package var store: String?
    /// The keyring directory (`REEL_KEYRING`) when not the tests' shared one.
    package var keyring: String?

    package init(dir: String = temporaryDirectory("ledger-cli")) { self.dir = dir }

    /// Offline with TMDb credentials: ids are saved without being checked (a note on stderr says
    /// so), as when TMDb cannot be reached. How a test saves ids the bundled sample catalog does
    /// not hold, or more titles than it holds (it refuses an id it does not know, as TMDb does).
    package static let unchecked = ["TMDB_API_TOKEN": "unchecked", "REEL_OFFLINE": "1"]

    /// A new ledger on `server` (a new migrated database of it), or in a data directory alone
    /// when `server` is nil.
    package static func make(on server: PostgresServer?) async throws -> LedgerHome {
        var ledger = LedgerHome()
        guard let server else { return ledger }
        let database = try await server.createDatabase("ledger_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        ledger.store = server.url(database: database)
        let made = ledger
        let migrated = try await made.reel(["store", "migrate"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return ledger
    }

    /// A new ledger on a new migrated database of `pair` (a URL naming both its servers), and the
    /// database's name.
    package static func make(on pair: FailoverPair) async throws -> (ledger: LedgerHome, database: String) {
        var ledger = LedgerHome()
        let database = try await pair.createDatabase("ledger_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        ledger.store = pair.url(database: database)
        let made = ledger
        let migrated = try await made.reel(["store", "migrate"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return (ledger, database)
    }

    @discardableResult
    package func reel(_ arguments: [String], user: String? = nil, environment: [String: String] = [:]) async throws -> Harness.Output {
        // No TMDb credentials: the bundled sample catalog answers, whatever the machine has.
        var env = ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": dir + "/config", "REEL_OFFLINE": ""]
        if let store { env["REEL_STORE"] = store }
        if let keyring { env["REEL_KEYRING"] = keyring }
        env.merge(environment) { _, new in new }
        env["REEL_DATA_DIR"] = dir
        if let user { env["REEL_USER"] = user }
        return try await Harness.reel(arguments, environment: env)
    }

    /// Runs a `--json` command, checks exit 0 and validates the document against `schema`.
    @discardableResult
    package func json(_ arguments: [String], user: String? = nil, schema: String) async throws -> [String: Any] {
        let out = try await reel(arguments + ["--json"], user: user)
        #expect(out.status == 0, "\(arguments): \(out.stderr)")
        let checked = try Harness.validate(out.stdout, against: "cli/" + schema)
        #expect(checked.status == 0, "\(arguments) against \(schema): \(checked.stderr)")
        return try Harness.json(out.stdout)
    }

    /// Expects a failure: exit `status`, exactly one line on stderr containing `message`, nothing on stdout.
    package func fails(_ arguments: [String], user: String? = nil, status: Int32, _ message: String) async throws {
        let out = try await reel(arguments, user: user)
        #expect(out.status == status, "\(arguments): exit \(out.status), stderr \(out.stderr)")
        #expect(out.stderr.hasPrefix("reel: "), "\(arguments): \(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1, "\(arguments): \(out.stderr)")
        #expect(out.stderr.contains(message), "\(arguments): \(out.stderr)")
        #expect(out.stdout.isEmpty, "\(arguments): \(out.stdout)")
    }

    package func eventCount() async throws -> Int {
        let out = try await reel(["audit", "verify", "--json"])
        return try Harness.json(out.stdout)["events"] as? Int ?? -1
    }
}

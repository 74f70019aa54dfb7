import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// A primary with a synchronous standby, managed by pg_auto_failover, of the test's own: a monitor,
/// a primary and a secondary on loopback ports in a temporary directory, each run by its own
/// `pg_autoctl run` (as the `postgres` user when this process is root). The monitor checks the
/// nodes every second and gives a lost primary three seconds to demote itself, so a failover
/// takes seconds rather than the half minute of pg_auto_failover's defaults (see the handbook's
/// PostgreSQL page for the settings and what they trade). Debian's `pg-auto-failover-cli` and
/// `postgresql-15-auto-failover` provide it (`Tools/install-deps.sh` installs them).
///
/// Connections need no password (`--auth trust` on loopback). Everything is stopped by `stop()`,
/// or when the test process exits.
public final class FailoverPair: @unchecked Sendable {
    /// One PostgreSQL node of the pair.
    public struct Node: Sendable, Equatable {
        public let name: String
        public let port: Int
        /// The cluster's files (what a raw scan of the node's disk reads).
        public let dataDirectory: String
    }

    public let directory: String
    public let monitorPort: Int
    /// The two nodes, in the order they were made (the first starts as the primary).
    public let nodes: [Node]
    /// The database made on the primary for Reel.
    public let database = "reel"
    private var keepers: [String: ChildProcess] = [:]
    private let lock = NSLock()
    private var stopped = false

    /// `postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/DATABASE?target_session_attrs=read-write`.
    public func url(database: String? = nil) -> String {
        "postgres://postgres@\(nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ","))/\(database ?? self.database)?target_session_attrs=read-write"
    }

    /// One node alone: `postgres://postgres@127.0.0.1:PORT/DATABASE`.
    public func url(of node: Node, database: String? = nil) -> String {
        "postgres://postgres@127.0.0.1:\(node.port)/\(database ?? self.database)"
    }

    /// The pair the suites that only use it share (the contract, the ledger's commands, the
    /// service): one per test process. A test that kills a node starts its own.
    public static let shared = Task { try await FailoverPair.started("shared-pair") }

    /// Makes a new database on the primary (streamed to the standby) and returns its name.
    @discardableResult
    public func createDatabase(_ name: String) async throws -> String {
        guard let primary = try await offThread({ try self.primary() }) else { throw PostgresServer.Failure(description: "the pair has no primary") }
        try await psql(primary, "CREATE DATABASE \"\(name)\"", database: "postgres")
        return name
    }

    /// Starts the monitor, the primary and the secondary, and returns once the primary is
    /// `primary` and the secondary `secondary` (streaming, synchronous).
    /// `fsync` off unless asked (a benchmark asks).
    /// `settings`: more of the primary's settings, which its standby's base backup copies.
    public static func started(_ name: String = #function, fsync: Bool = false, settings: [String: String] = [:]) async throws -> FailoverPair {
        try await offThread { try start(name, fsync: fsync, settings: settings) }
    }

    private init(directory: String, monitorPort: Int, nodes: [Node]) {
        self.directory = directory
        self.monitorPort = monitorPort
        self.nodes = nodes
    }

    deinit { stop() }

    static func start(_ name: String, fsync: Bool, settings: [String: String] = [:]) throws -> FailoverPair {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw PostgresServer.Failure(
                description: "\(program) is not installed (Debian: pg-auto-failover-cli and postgresql-15-auto-failover; Tools/install-deps.sh installs them)")
        }
        let directory = temporaryDirectory(name)
        chmod(directory, 0o755)
        // pg_autoctl keeps its state and pid files under XDG_RUNTIME_DIR, or in /tmp/pg_autoctl when
        // that directory does not exist, where two pairs made at once race to make the same parent
        // ("File exists"): each pair has its own.
        for sub in ["run", "config", "share"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
            chmod(directory + "/" + sub, 0o700)
        }
        if getuid() == 0 { try PostgresServer.run(["/bin/chown", "-R", "postgres:postgres", directory], asPostgres: false) }
        let nodes = try (1...2).map { Node(name: "node_\($0)", port: try PostgresServer.freePort(), dataDirectory: directory + "/node\($0)") }
        let pair = FailoverPair(directory: directory, monitorPort: try PostgresServer.freePort(), nodes: nodes)
        Running.add(pair)
        do {
            try pair.autoctl(["create", "monitor", "--pgdata", pair.monitorData, "--pgport", String(pair.monitorPort), "--hostname", "127.0.0.1",
                              "--auth", "trust", "--no-ssl"])
            try pair.writeSettings(pair.monitorData, ["fsync": "off"])
            try pair.run(pair.monitorData, as: "monitor")
            try pair.waitUntil("the monitor to answer") { (try? pair.psql(port: pair.monitorPort, database: "pg_auto_failover", "SELECT 1")) == "1" }
            // Seconds, not pg_auto_failover's half minute: a check every second, a node unhealthy
            // after two, a lost primary given three to demote itself (its own keeper demotes it
            // after two without the monitor, so two primaries never take writes at once).
            for (name, value) in [
                ("health_check_period", 1000), ("health_check_timeout", 1000), ("health_check_max_retries", 1), ("health_check_retry_delay", 500),
                ("node_considered_unhealthy_timeout", 2000), ("primary_demote_timeout", 3000),
            ] {
                try pair.psql(port: pair.monitorPort, database: "pg_auto_failover", "ALTER SYSTEM SET pgautofailover.\(name) = \(value)")
            }
            try pair.psql(port: pair.monitorPort, database: "pg_auto_failover", "SELECT pg_reload_conf()")
            for node in nodes {
                try pair.autoctl([
                    "create", "postgres", "--pgdata", node.dataDirectory, "--pgport", String(node.port), "--hostname", "127.0.0.1",
                    "--name", node.name, "--auth", "trust", "--no-ssl", "--dbname", pair.database, "--monitor", pair.monitorURL,
                ])
                try pair.autoctl(["config", "set", "--pgdata", node.dataDirectory, "timeout.network_partition_timeout", "2"])
                if node == nodes[0] {
                    try pair.writeSettings(node.dataDirectory, settings.merging(["fsync": fsync ? "on" : "off", "max_connections": "200"]) { $1 })
                }
                try pair.run(node.dataDirectory, as: node.name)
                try pair.waitUntil("\(node.name) to join the pair", seconds: 60) {
                    let states = (try? pair.states()) ?? [:]
                    return node == nodes[0] ? ["primary", "wait_primary", "single"].contains(states[node.name] ?? "") : states[node.name] == "secondary"
                }
            }
            try pair.waitUntil("the pair to be a primary and a synchronous secondary", seconds: 60) {
                let states = (try? pair.states()) ?? [:]
                return states[nodes[0].name] == "primary" && states[nodes[1].name] == "secondary"
            }
        } catch {
            pair.stop()
            let log = (try? String(contentsOfFile: directory + "/\(nodes[1].name).log", encoding: .utf8)) ?? ""
            throw PostgresServer.Failure(description: "\(error)\nthe secondary's keeper log ends:\n\(log.split(separator: "\n").suffix(6).joined(separator: "\n"))")
        }
        return pair
    }

    // MARK: What the pair is doing

    /// Each node's state as it last reported it to the monitor (`primary`, `secondary`,
    /// `wait_primary`, …), or, `assigned`, the state the monitor wants it in (a node that is gone
    /// reports nothing more: its assigned state says what the monitor made of it).
    public func states(assigned: Bool = false) throws -> [String: String] {
        let rows = try psql(
            port: monitorPort, database: "pg_auto_failover",
            "SELECT nodename || '=' || \(assigned ? "goalstate" : "reportedstate") FROM pgautofailover.node ORDER BY nodeid")
        var states: [String: String] = [:]
        for line in rows.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { states[String(parts[0])] = String(parts[1]) }
        }
        return states
    }

    /// The node that is the primary now (assigned and reporting `primary`, `wait_primary` or
    /// `single`).
    public func primary() throws -> Node? {
        let reported = try states(), assigned = try states(assigned: true)
        let primaries: Set<String> = ["primary", "wait_primary", "single"]
        return nodes.first { primaries.contains(reported[$0.name] ?? "") && primaries.contains(assigned[$0.name] ?? "") }
    }

    /// The monitor's last events, oldest first, a line each (what a failing test prints).
    public func events(count: Int = 20) -> String {
        (try? psql(
            port: monitorPort, database: "pg_auto_failover",
            "SELECT * FROM (SELECT eventtime::time || ' ' || nodename || ' ' || reportedstate || '/' || goalstate || ': ' || description, eventid FROM pgautofailover.event ORDER BY eventid DESC LIMIT \(count)) e ORDER BY eventid"
        )) ?? "(the monitor did not answer)"
    }

    /// Runs `sql` with psql on `node` (off the concurrency pool): its rows unaligned, `|`-separated.
    @discardableResult
    public func psql(_ node: Node, _ sql: String, database: String? = nil) async throws -> String {
        try await offThread { try self.psql(port: node.port, database: database ?? self.database, sql) }
    }

    @discardableResult
    func psql(port: Int, database: String, _ sql: String) throws -> String {
        try PostgresServer.run(
            [PostgresServer.program("psql"), "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1",
             "-c", sql])
    }

    // MARK: Losing one

    /// Kills `node` as the loss of its machine would: its keeper's whole session (the supervisor,
    /// its services, the postmaster they started) and every server process with `SIGKILL`, nothing
    /// flushed or said goodbye. (Killing the supervisor alone is not enough: its service that
    /// starts and stops PostgreSQL lives on and starts it again.)
    public func kill(_ node: Node) {
        let keeper = lock.withLock { keepers.removeValue(forKey: node.name) }
        var victims: [pid_t] = []
        // The postmaster named by its pid file, if that pid is still this node's (not reused).
        if let text = try? String(contentsOfFile: node.dataDirectory + "/postmaster.pid", encoding: .utf8),
            let postmaster = pid_t(text.prefix { $0 != "\n" }), ProcessTable.naming(node.dataDirectory).contains(postmaster)
        {
            victims.append(postmaster)
            victims += ProcessTable.children(of: postmaster)
        }
        for pid in ProcessTable.naming(node.dataDirectory) where !victims.contains(pid) { victims.append(pid) }
        // The keeper runs in a session of its own (`newSession`): its process group is its pid.
        if let keeper { Glibc.kill(-keeper.pid, SIGKILL) }
        for pid in victims { Glibc.kill(pid, SIGKILL) }
        if let keeper { _ = keeper.wait() }
    }

    /// Stops everything at once (immediate shutdown); again does nothing.
    public func stop() {
        let running: [ChildProcess] = lock.withLock {
            guard !stopped else { return [] }
            stopped = true
            defer { keepers = [:] }
            return Array(keepers.values)
        }
        guard !running.isEmpty || !nodes.isEmpty else { return }
        // The keepers first: their service that starts PostgreSQL would start a node again.
        for keeper in running { Glibc.kill(-keeper.pid, SIGKILL) }
        for node in nodes { kill(node) }
        for pid in ProcessTable.naming(monitorData) { Glibc.kill(pid, SIGKILL) }
        if let text = try? String(contentsOfFile: monitorData + "/postmaster.pid", encoding: .utf8), let pid = pid_t(text.prefix { $0 != "\n" }),
            ProcessTable.naming(monitorData).contains(pid)
        {
            for child in ProcessTable.children(of: pid) { Glibc.kill(child, SIGKILL) }
            Glibc.kill(pid, SIGKILL)
        }
        for keeper in running { _ = keeper.wait() }
    }

    // MARK: - Processes

    static let program = "/usr/bin/pg_autoctl"
    private var monitorData: String { directory + "/monitor" }
    private var monitorURL: String { "postgres://autoctl_node@127.0.0.1:\(monitorPort)/pg_auto_failover?sslmode=disable" }

    /// pg_autoctl's environment: PostgreSQL's programs on the PATH, its configuration and state
    /// files in the pair's directory.
    private var environment: [String] {
        ["PATH=" + (PostgresServer.program("pg_ctl") as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
         "XDG_CONFIG_HOME=\(directory)/config", "XDG_DATA_HOME=\(directory)/share", "XDG_RUNTIME_DIR=\(directory)/run"]
    }

    private func autoctl(_ arguments: [String]) throws {
        try PostgresServer.run(["/usr/bin/env"] + environment + [Self.program] + arguments)
    }

    /// Starts `pg_autoctl run` for the node in `data`, its log beside the node.
    private func run(_ data: String, as name: String) throws {
        let command = ["/usr/bin/env"] + environment + [Self.program, "run", "--pgdata", data]
        let keeper = try ChildProcess.spawn(
            getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command,
            standardOutput: .write(directory + "/\(name).out", mode: 0o666), standardError: .write(directory + "/\(name).log", mode: 0o666),
            newSession: true)
        lock.withLock { keepers[name] = keeper }
    }

    /// Settings a node starts with (`postgresql.auto.conf`, which a standby's base backup copies).
    private func writeSettings(_ data: String, _ settings: [String: String]) throws {
        let path = data + "/postgresql.auto.conf"
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) { text += "\(name) = '\(value)'\n" }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func waitUntil(_ what: String, seconds: Double = 30, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw WaitTimedOut(what: what, seconds: seconds) }
            usleep(100_000)
        }
    }

    /// The pairs started by this process, stopped when it exits.
    enum Running {
        nonisolated(unsafe) private static var pairs: [FailoverPair] = []
        private static let lock = NSLock()
        private static let registered: Void = { atexit { Running.stopAll() } }()

        static func add(_ pair: FailoverPair) {
            _ = registered
            lock.withLock { pairs.append(pair) }
        }

        static func stopAll() {
            for pair in lock.withLock({ pairs }) { pair.stop() }
        }
    }
}

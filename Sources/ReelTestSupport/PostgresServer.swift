import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server of the test's own: `initdb` in a temporary directory, started with
/// `pg_ctl` on a free loopback port (and a Unix socket in the same directory), stopped by `stop()`
/// or at the latest when the test process exits (its directory is removed then, and a postmaster
/// whose lock file is gone shuts itself down within a minute). As root the server runs as the
/// `postgres` user (`runuser`), as PostgreSQL refuses to run as root. Debian's `postgresql`
/// package provides the programs (`Tools/install-deps.sh` installs it).
///
/// The superuser `postgres` may connect without a password over the socket; over TCP it needs
/// its password, `PostgresServer.password`, so tests can check that a wrong or missing one is
/// refused.
public final class PostgresServer: @unchecked Sendable {
    public static let password = "pg-test-secret-6f1d"

    /// The cluster's files (what a raw scan of the server's disk reads).
    public var dataDirectory: String { directory + "/data" }
    /// The server's root: `data/` (the cluster), the socket, `server.log`.
    public let directory: String
    public let port: Int
    /// More server settings (`-c NAME=VALUE`), e.g. `wal_recycle: off`.
    private let settings: [String: String]
    private let fsync: Bool
    private var stopped = false

    /// `postgres://postgres:PASSWORD@127.0.0.1:PORT/DATABASE`.
    public func url(database: String = "postgres", password: String? = PostgresServer.password) -> String {
        "postgres://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/\(database)"
    }

    /// The same database over the Unix socket: `postgres:///DATABASE?host=DIR&port=PORT`.
    public func socketURL(database: String = "postgres") -> String {
        "postgres:///\(database)?host=\(directory)&port=\(port)"
    }

    /// Starts a new server on a thread of its own (`offThread`: initdb and pg_ctl take seconds
    /// that must not hold a thread of the concurrency pool); `fsync` off unless asked (tests of
    /// the server's own crashes ask).
    public static func started(_ name: String = #function, fsync: Bool = false, settings: [String: String] = [:]) async throws -> PostgresServer {
        try await offThread { try start(name, fsync: fsync, settings: settings) }
    }

    static func start(_ name: String, fsync: Bool, settings: [String: String] = [:]) throws -> PostgresServer {
        let directory = temporaryDirectory(name)
        chmod(directory, 0o755)
        var server = PostgresServer(directory: directory, port: try freePort(), settings: settings, fsync: fsync)
        try server.initialize()
        Running.add(server.data)
        // A port free when chosen may be taken before the server binds it (another process of the
        // run chose it too): then the server starts on another.
        var attempts = 1
        while true {
            do {
                try server.launch()
                return server
            } catch let failure as Failure where failure.description.contains("Address already in use") && attempts < 5 {
                attempts += 1
                server = PostgresServer(directory: directory, port: try freePort(), settings: settings, fsync: fsync)
            }
        }
    }

    private init(directory: String, port: Int, settings: [String: String], fsync: Bool) {
        self.directory = directory
        self.port = port
        self.settings = settings
        self.fsync = fsync
    }

    deinit { stop() }

    private var data: String { directory + "/data" }

    /// The cluster: a copy of the test process's one `initdb` (`Template`).
    private func initialize() throws {
        let template = try Template.cluster()
        if getuid() == 0 { try Self.run(["/bin/chown", "-R", "postgres:postgres", directory], asPostgres: false) }
        try Self.run(["/bin/cp", "-a", template, data])
    }

    /// The cluster every server of this process starts from, made by `initdb` on first use: a
    /// server's own `initdb` cost it a second, most of it processor time, where a copy of the
    /// files costs a tenth of that (a run of the PostgreSQL suites starts a hundred servers).
    enum Template {
        nonisolated(unsafe) private static var made: String?
        private static let lock = NSLock()

        static func cluster() throws -> String {
            try lock.withLock {
                if let made { return made }
                let directory = temporaryDirectory("pg-template")
                chmod(directory, 0o755)
                let passwordFile = directory + "/pwfile"
                try Data((PostgresServer.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
                if getuid() == 0 { try PostgresServer.run(["/bin/chown", "-R", "postgres:postgres", directory], asPostgres: false) }
                let data = directory + "/data"
                try PostgresServer.run(
                    [PostgresServer.program("initdb"), "-D", data, "-U", "postgres", "--pwfile", passwordFile, "-A", "scram-sha-256",
                     "--auth-local=trust", "-E", "UTF8", "--locale=C", "-N"])
                made = data
                return data
            }
        }
    }

    private func launch() throws {
        let extra = settings.sorted { $0.key < $1.key }.map { " -c \($0.key)=\($0.value)" }.joined()
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=\(fsync ? "on" : "off") -c max_connections=200" + extra
        do {
            try Self.run([Self.program("pg_ctl"), "-D", data, "-l", directory + "/server.log", "-o", options, "-w", "-t", "60", "start"])
        } catch {
            // pg_ctl says only "could not start server": the server's own words are in its log.
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            let tail = log.split(separator: "\n").suffix(8).joined(separator: "\n")
            throw Failure(description: "\(error)\nthe server's log ends:\n\(tail)")
        }
    }

    /// Stops the server as a crash would (`-m immediate`: no checkpoint, every connection cut) and
    /// starts it again on the same port, which recovers from its WAL (off the concurrency pool).
    /// `pg_ctl stop` returns when the postmaster is gone, but its backends, sent SIGQUIT, may still
    /// be attached to its shared memory a moment longer, and a server started then refuses to run
    /// ("pre-existing shared memory block is still in use"): the start waits for them to detach.
    public func crashAndRestart() async throws {
        let memory = sharedMemoryID()
        try await offThread { _ = try Self.run([Self.program("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"]) }
        if let memory {
            try await waitFor("the crashed server's processes to let go of its shared memory") { Self.isDetached(memory) }
        }
        try await offThread { try self.launch() }
    }

    /// The System V shared memory the running server holds: the id on the seventh line of
    /// `postmaster.pid` (after its key); nil when there is none to read.
    private func sharedMemoryID() -> Int32? {
        guard let text = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 7 else { return nil }
        let fields = lines[6].split(separator: " ")
        return fields.count >= 2 ? Int32(fields[1]) : nil
    }

    /// Whether no process is attached to the shared memory `id` any more (or it is gone).
    private static func isDetached(_ id: Int32) -> Bool {
        var status = shmid_ds()
        return shmctl(id, IPC_STAT, &status) != 0 || status.shm_nattch == 0
    }

    /// A copy of the cluster made now with `pg_basebackup` (its files and the WAL to make them
    /// consistent), in a directory of its own, with this server's settings; as a `standby` it
    /// streams from this server from then on (`-R`). Started at once unless `start` is false
    /// (`launchCopy()` starts it later).
    public func copy(_ name: String = #function, standby: Bool = false, start: Bool = true) async throws -> PostgresServer {
        try await offThread {
            let directory = temporaryDirectory(name)
            chmod(directory, 0o755)
            let copy = PostgresServer(directory: directory, port: try Self.freePort(), settings: self.settings, fsync: self.fsync)
            if getuid() == 0 { try Self.run(["/bin/chown", "-R", "postgres:postgres", directory], asPostgres: false) }
            try Self.run(
                [Self.program("pg_basebackup"), "-h", self.directory, "-p", String(self.port), "-U", "postgres", "-D", copy.data, "-X", "stream", "-c", "fast"]
                    + (standby ? ["-R"] : []))
            Running.add(copy.data)
            if start { try copy.launch() }
            return copy
        }
    }

    /// Starts a copy made with `start: false`.
    public func launchCopy() async throws {
        try await offThread { try self.launch() }
    }

    /// Promotes a standby to a primary (`pg_ctl promote`, waiting until it is).
    public func promote() async throws {
        try await offThread { _ = try Self.run([Self.program("pg_ctl"), "-D", self.data, "-w", "-t", "60", "promote"]) }
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`); again does nothing.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? Self.run([Self.program("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"])
    }

    /// Runs `sql` with psql over the socket as the superuser (off the concurrency pool): its rows
    /// unaligned, `|`-separated.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let arguments = [Self.program("psql"), "-h", directory, "-p", String(port), "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql]
        return try await offThread { try Self.run(arguments) }
    }

    /// Makes a new database and returns its name.
    @discardableResult
    public func createDatabase(_ name: String) async throws -> String {
        try await psql("CREATE DATABASE \"\(name)\"")
        return name
    }

    /// The clusters started by this process, stopped when it exits (before its temporary
    /// directory is removed): SIGQUIT to each postmaster, PostgreSQL's immediate shutdown.
    enum Running {
        nonisolated(unsafe) private static var clusters: [String] = []
        private static let lock = NSLock()
        private static let registered: Void = { atexit { Running.stopAll() } }()

        static func add(_ data: String) {
            _ = registered
            lock.withLock { clusters.append(data) }
        }

        static func stopAll() {
            for data in lock.withLock({ clusters }) {
                guard let text = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8),
                    let pid = Int32(text.prefix { $0 != "\n" })
                else { continue }
                kill(pid, SIGQUIT)
            }
        }
    }

    // MARK: - Processes

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The newest installed PostgreSQL's `name` (Debian keeps them in /usr/lib/postgresql/N/bin).
    static func program(_ name: String) -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else { return name }
        return "\(root)/\(newest)/bin/\(name)"
    }

    /// Runs `arguments` (as `postgres` when this process is root), returns its stdout; a failure
    /// throws with its stderr. Spawned and waited for with posix_spawn and waitpid (no run loop),
    /// its output in files: `pg_ctl start` leaves a server running that must hold no pipe of ours.
    @discardableResult
    static func run(_ arguments: [String], asPostgres: Bool = true) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: arguments[0]) else {
            throw Failure(description: "\(arguments[0]) is not installed (Debian: postgresql; Tools/install-deps.sh installs it)")
        }
        let command = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        let outputs = temporaryDirectory("pg-run")
        chmod(outputs, 0o777)
        let outPath = outputs + "/stdout", errPath = outputs + "/stderr"
        defer { try? FileManager.default.removeItem(atPath: outputs) }
        // Nothing else of this process's (`ChildProcess`): a server `pg_ctl start` leaves running
        // would otherwise keep whatever descriptor another test had open at that moment (the write
        // end of a pipe whose reader then never sees its end, and hangs).
        let exited: Int32
        do {
            exited = try ChildProcess.spawn(
                command, standardOutput: .write(outPath, mode: 0o666), standardError: .write(errPath, mode: 0o666)
            ).wait().status
        } catch {
            throw Failure(description: "\(error)")
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        guard exited == 0 else {
            let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(exited): \(errors)")
        }
        return output.trimmingCharacters(in: .newlines)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now, below the kernel's range of ephemeral
    /// ports (`ip_local_port_range`) when it can: a port in that range may be given at any moment
    /// to an outgoing connection's source, or to a `reel serve --listen 127.0.0.1:0`, before the
    /// server binds it.
    static func freePort() throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
        if let low = range.first, low > 11_024 {
            for _ in 0..<200 {
                if let port = try bound(Int.random(in: (low - 10_000)..<low)) { return port }
            }
        }
        guard let port = try bound(0) else { throw Failure(description: "could not find a free port") }
        return port
    }

    /// The port 127.0.0.1 binds for `port` now (0: one the system chooses), released at once;
    /// `nil` when it cannot be bound.
    private static func bound(_ port: Int) throws -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}

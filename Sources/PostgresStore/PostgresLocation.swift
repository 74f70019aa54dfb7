import Failures
import Foundation
import PostgresNIO
import NIOSSL

/// Where a PostgreSQL store is, parsed from its URL (`--store`, `REEL_STORE`), in libpq's form:
///
/// ```
/// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full][&sslrootcert=FILE]
/// postgres://USER@HOST1:PORT1,HOST2:PORT2/DATABASE?target_session_attrs=read-write   (a primary and its standbys)
/// postgres:///DATABASE?host=/var/run/postgresql[&port=PORT]   (a Unix socket's directory)
/// ```
///
/// Several hosts, comma-separated, are tried in order, as libpq does, until one is of the kind
/// `target_session_attrs` asks for: `any` (the default for one host), `read-write` (accepts
/// writes: the default for several, so the store finds the primary by itself after a failover),
/// `read-only`, `primary`, `standby`, `prefer-standby` (a standby when one answers, else any).
///
/// USER defaults to `postgres`, PORT to 5432, DATABASE to USER, PASSWORD to `PGPASSWORD`;
/// percent-escapes are decoded.
/// `sslmode` says whether to use TLS: `disable` (the default: loopback and sockets need none),
/// `prefer` (TLS when the server offers it), `require` (TLS or nothing, the certificate not
/// checked, as libpq's `require`), `verify-full` (TLS with the certificate and the host name
/// checked against the system's trust roots, or those of `sslrootcert`, a PEM file: a private CA;
/// with `require`, `sslrootcert` has the chain checked but not the host name, as libpq's). The
/// password is never shown: `description` leaves it out, and no error quotes the URL.
public struct PostgresLocation: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, Equatable {
    /// Whether and how to use TLS (libpq's `sslmode`).
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    /// One server of the URL: a host name or address and its port.
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        public let host: String
        public let port: Int
        public var description: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    /// What kind of server a connection must reach (libpq's `target_session_attrs`).
    public enum SessionTarget: String, Sendable, CaseIterable {
        case any
        case readWrite = "read-write"
        case readOnly = "read-only"
        case primary, standby
        case preferStandby = "prefer-standby"
    }

    /// The first server's host (`nil` for a Unix socket).
    public let host: String?
    /// The servers, in the order they are tried (none for a Unix socket).
    public let endpoints: [Endpoint]
    /// What kind of server a connection must reach.
    public let target: SessionTarget
    /// Whether `target_session_attrs` was given (else it is the default for the number of hosts).
    let targetGiven: Bool
    /// The directory of the server's Unix socket (`?host=/dir`), when it is reached by one.
    public let socketDirectory: String?
    public let port: Int
    public let user: String
    public let password: String?
    public let database: String
    public let tls: TLSMode
    /// The PEM file of the certificate authorities to trust (`sslrootcert`), instead of the system's.
    public let rootCertificates: String?

    /// Whether `text` is meant as a PostgreSQL URL (its scheme), rather than a data directory.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses `text`; a usage failure says what is wrong with it without quoting it (it may
    /// hold a password). A URL without a password takes `PGPASSWORD` from `environment`, as libpq
    /// does (a password on a command line is seen by every user of the machine).
    public init(_ text: String, environment: [String: String] = [:]) throws {
        guard Self.isURL(text) else {
            throw Failure(.usage, "a store URL starts with postgres:// or postgresql:// (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
            throw Failure(.usage, "the store URL is not a valid URL (escape special characters in the password with %XX)")
        }
        // The user and password are split off by hand, at the last '@' before the path: a URL
        // parser reads `user:?pw@host` or `user:2024#pw@host` as a host and port, and the rest
        // of the password as a query or a database a message would then quote.
        let rest = text[text.range(of: "://")!.upperBound...]
        let at = rest.lastIndex(of: "@")
        let userInfo = at.map { rest[..<$0] }
        if let userInfo, userInfo.contains(where: { "/?#[]@".contains($0) }) {
            throw Failure(.usage, "the store URL's user or password holds a character that must be escaped (%2F for '/', %3F for '?', %23 for '#', %40 for '@')")
        }
        let afterUserInfo = at.map { rest[rest.index(after: $0)...] } ?? rest
        let authorityEnd = afterUserInfo.firstIndex { "/?#".contains($0) } ?? afterUserInfo.endIndex
        let hostPort = afterUserInfo[..<authorityEnd]
        guard !afterUserInfo[authorityEnd...].contains("#"),
            let components = URLComponents(string: "postgres://x" + afterUserInfo[authorityEnd...])
        else {
            throw Failure(.usage, "the store URL is not a valid URL (escape special characters in the password with %XX)")
        }
        let hosts = try hostPort.split(separator: ",", omittingEmptySubsequences: false).map { try Self.hostAndPort($0) }
        if hosts.count > 1, hosts.contains(where: { $0.0 == nil }) {
            throw Failure(.usage, "the store URL's host list has an empty entry (HOST1:PORT1,HOST2:PORT2)")
        }
        let (host, urlPort) = hosts[0]
        let (urlUser, urlPassword) = try Self.userAndPassword(userInfo)
        let path = components.percentEncodedPath
        let name = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard !name.contains("/") else { throw Failure(.usage, "the store URL names a database with a '/' in it") }
        var tls = TLSMode.disable
        var rootCertificates: String?
        var socketDirectory: String?
        var queryPort: Int?
        var target: SessionTarget?
        var seen: Set<String> = []
        for item in components.queryItems ?? [] {
            guard seen.insert(item.name).inserted else {
                throw Failure(.usage, "the store URL gives \(item.name)= twice")
            }
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    throw Failure(.usage, "sslmode in the store URL must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "sslrootcert":
                guard let value = item.value, value.hasPrefix("/") else {
                    throw Failure(.usage, "sslrootcert= in the store URL must be the absolute path of a PEM file of certificate authorities")
                }
                rootCertificates = value
            case "port":
                guard let value = item.value, let number = Int(value), (1...65_535).contains(number) else {
                    throw Failure(.usage, "port= in the store URL must be 1 to 65535")
                }
                queryPort = number
            case "target_session_attrs":
                guard let value = item.value, let kind = SessionTarget(rawValue: value) else {
                    throw Failure(
                        .usage, "target_session_attrs in the store URL must be one of \(SessionTarget.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                target = kind
            case "host":
                guard let value = item.value, value.hasPrefix("/") else {
                    throw Failure(.usage, "host= in the store URL must be the absolute path of the server's socket directory")
                }
                socketDirectory = value
            default:
                throw Failure(.usage, "the store URL has a parameter Reel does not know (known: sslmode, sslrootcert, host, port, target_session_attrs)")
            }
        }
        guard host != nil || socketDirectory != nil else {
            throw Failure(.usage, "the store URL names no host (postgres://USER@HOST/DATABASE, or ?host=/socket/directory)")
        }
        if socketDirectory != nil, host != nil {
            throw Failure(.usage, "the store URL names both a host and a socket directory (?host=/dir): give one")
        }
        if hosts.count > 1, queryPort != nil {
            throw Failure(.usage, "port= in the store URL cannot go with several hosts: write each as HOST:PORT")
        }
        let user = urlUser ?? "postgres"
        let database = name.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        self.host = host
        self.endpoints = socketDirectory != nil ? [] : hosts.map { Endpoint(host: $0.0!, port: queryPort ?? $0.1 ?? 5432) }
        self.target = target ?? (hosts.count > 1 ? .readWrite : .any)
        self.targetGiven = target != nil
        self.socketDirectory = socketDirectory
        self.port = queryPort ?? urlPort ?? 5432
        self.user = user
        self.password = urlPassword ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.database = database
        self.tls = tls
        self.rootCertificates = rootCertificates
        if rootCertificates != nil, tls == .disable || tls == .prefer {
            throw Failure(.usage, "sslrootcert= in the store URL needs sslmode=require or verify-full")
        }
    }

    /// `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT` (empty: none).
    static func hostAndPort(_ text: Substring) throws -> (String?, Int?) {
        var host = text
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw Failure(.usage, "the store URL's host has a '[' without its ']'") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw Failure(.usage, "the store URL's host has text after its ']'")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        var port: Int?
        if let portText {
            guard portText.count <= 5, let number = Int(portText), (1...65_535).contains(number) else {
                throw Failure(.usage, "the store URL's port must be 1 to 65535")
            }
            port = number
        }
        guard let decoded = host.removingPercentEncoding else { throw Failure(.usage, "the store URL's host is not valid") }
        return (decoded.isEmpty ? nil : decoded, port)
    }

    /// Whether every '%' in `text` starts an escape of two hex digits.
    static func escapesAreValid(_ text: Substring) -> Bool {
        var rest = text.utf8[...]
        while let percent = rest.firstIndex(of: UInt8(ascii: "%")) {
            let digits = rest[rest.index(after: percent)...].prefix(2)
            guard digits.count == 2, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }) else {
                return false
            }
            rest = rest[rest.index(percent, offsetBy: 3)...]
        }
        return true
    }

    /// `USER`, `USER:PASSWORD`, percent-decoded (empty parts: none).
    static func userAndPassword(_ text: Substring?) throws -> (String?, String?) {
        guard let text else { return (nil, nil) }
        let colon = text.firstIndex(of: ":")
        let user = colon.map { text[..<$0] } ?? text
        let password = colon.map { text[text.index(after: $0)...] }
        guard Self.escapesAreValid(text), let decodedUser = user.removingPercentEncoding,
            let decodedPassword = password.map({ $0.removingPercentEncoding }) ?? .some(nil)
        else {
            throw Failure(.usage, "the store URL's user or password has a '%' that is not an escape (write '%25')")
        }
        return (decodedUser.isEmpty ? nil : decodedUser, decodedPassword.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The URL without its password.
    public var description: String {
        var text = "postgres://\(user)@\(endpoints.map(\.description).joined(separator: ","))/\(database)"
        if let socketDirectory { text += "?host=\(socketDirectory)" + (port == 5432 ? "" : "&port=\(port)") }
        if targetGiven { text += (socketDirectory == nil ? "?" : "&") + "target_session_attrs=\(target.rawValue)" }
        return text
    }

    /// The same: a location printed for debugging or dumped shows no password either.
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["url": description]) }

    /// The same servers, reached for `target` (reads that a standby may answer).
    public func targeting(_ target: SessionTarget) -> PostgresLocation {
        PostgresLocation(copying: self, target: target)
    }

    /// The same, reaching `endpoint` alone, whatever its role.
    init(copying other: PostgresLocation, endpoint: Endpoint) {
        self.init(copying: other, target: .any, endpoints: [endpoint])
    }

    private init(copying other: PostgresLocation, target: SessionTarget, endpoints: [Endpoint]? = nil) {
        host = endpoints?.first?.host ?? other.host
        self.endpoints = endpoints ?? other.endpoints
        self.target = target
        // Printed only when it is not what the URL says already.
        targetGiven = endpoints == nil && (other.targetGiven || target != other.target)
        socketDirectory = other.socketDirectory
        port = endpoints?.first?.port ?? other.port
        user = other.user
        password = other.password
        database = other.database
        tls = other.tls
        rootCertificates = other.rootCertificates
    }

    /// The connection's configuration for PostgresNIO, for each server in the order they are
    /// tried, with Reel's session settings in the startup message (no round trip of their own).
    func configurations() throws -> [(server: String, configuration: PostgresConnection.Configuration)] {
        if let socketDirectory {
            var configuration = PostgresConnection.Configuration(
                unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
            configuration.options.additionalStartupParameters = PostgresSession.startupSettings
            return [(socketDirectory, configuration)]
        }
        let tls = try tlsConfiguration()
        return endpoints.map { endpoint in
            var configuration = PostgresConnection.Configuration(
                host: endpoint.host, port: endpoint.port, username: user, password: password, database: database, tls: tls)
            configuration.options.additionalStartupParameters = PostgresSession.startupSettings
            // With another server to try, a host that does not answer is left sooner.
            if endpoints.count > 1 { configuration.options.connectTimeout = .seconds(3) }
            return (endpoint.description, configuration)
        }
    }

    /// TLS for PostgresNIO as `sslmode` and `sslrootcert` say.
    private func tlsConfiguration() throws -> PostgresConnection.Configuration.TLS {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch self.tls {
            case .disable: tls = .disable
            case .prefer, .require:
                var configuration = TLSConfiguration.makeClientConfiguration()
                if let rootCertificates {
                    configuration.trustRoots = .file(rootCertificates)
                    configuration.certificateVerification = .noHostnameVerification
                } else {
                    configuration.certificateVerification = .none
                }
                let context = try NIOSSLContext(configuration: configuration)
                tls = self.tls == .prefer ? .prefer(context) : .require(context)
            case .verifyFull:
                var configuration = TLSConfiguration.makeClientConfiguration()
                if let rootCertificates { configuration.trustRoots = .file(rootCertificates) }
                tls = .require(try NIOSSLContext(configuration: configuration))
            }
        } catch {
            throw Failure(.unavailable, "TLS for the store could not be set up: \(error)")
        }
        return tls
    }
}

import Foundation
public import Reel

/// How `reel serve` runs: where it listens, the operator token, TLS, and the limits that keep one
/// client from taking the service from the others. A front end fills it in from its flags and the
/// environment (`from(environment:)`); every limit has a default a small deployment can keep.
public struct ServiceSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// `REEL_OPERATOR_TOKEN`: the operator endpoints (`/v1/admin`, `/metrics`) are off without it.
    public var operatorToken: String?
    /// Certificate chain and private key (PEM) for serving HTTPS directly; by default TLS is the
    /// reverse proxy's job.
    public var tlsCertificate: String?
    public var tlsKey: String?

    /// The largest request body read, except imports and photos (`REEL_SERVE_MAX_BODY`).
    public var maximumBody = 64 * 1024
    /// The largest import body (64 MiB): a list or an account's export.
    public var maximumImport = InputLimit.list
    /// The largest photo, as the command (5 MB).
    public var maximumPhoto = InputLimit.photo
    /// JSON nested deeper than this is refused before it is parsed.
    public var maximumJSONDepth = 8
    /// Requests per second one token may make on average (`REEL_SERVE_RATE`), and the burst it
    /// may spend at once (`REEL_SERVE_BURST`).
    public var ratePerSecond = 50.0
    public var burst = 200.0
    /// Open event streams per token (`REEL_SERVE_STREAMS`).
    public var streamsPerToken = 8
    /// Seconds a client may take to send a request's head (from a new connection's start, or from
    /// the first byte of a kept-alive connection's next request), and its body (slow clients:
    /// slowloris).
    public var headerTimeout = 10.0
    public var bodyTimeout = 30.0
    /// Seconds an idle keep-alive connection stays open.
    public var idleTimeout = 60.0
    /// Seconds a graceful shutdown waits for in-flight requests before it gives up on them.
    public var shutdownDeadline = 10.0
    /// How often other processes' appends are looked for (the event streams' poll, seconds).
    public var pollInterval = 0.2
    /// The origins whose pages may call the service from a browser (`REEL_SERVE_ORIGINS`:
    /// `https://app.example`, several separated by commas or spaces, or `*` for any); none by
    /// default.
    public var allowedOrigins: [String] = []
    /// The logs this service cosigns for as a witness (`--witness FILE`, `REEL_WITNESS_LOGS`);
    /// `nil`: it is no witness.
    public var witnessedLogs: WitnessedLogs?

    public init() {}

    /// The settings `REEL_LISTEN`, `REEL_OPERATOR_TOKEN` and the `REEL_SERVE_*` limits name;
    /// a value that does not parse is a usage failure naming the variable.
    public static func from(environment: [String: String], listen: String? = nil) throws -> ServiceSettings {
        var settings = ServiceSettings()
        if let listen = listen ?? environment["REEL_LISTEN"].flatMap({ $0.isEmpty ? nil : $0 }) {
            (settings.host, settings.port) = try parseListen(listen)
        }
        if let token = environment["REEL_OPERATOR_TOKEN"], !token.isEmpty {
            guard token.utf8.count >= 16 else {
                throw Failure(.usage, "REEL_OPERATOR_TOKEN is too short to be safe: use at least 16 characters (32 random bytes in hex, say)")
            }
            settings.operatorToken = token
        }
        func number(_ name: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw Failure(.usage, "\(name)=\(text) is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        if let n = try number("REEL_SERVE_MAX_BODY", 1_024...16_777_216) { settings.maximumBody = Int(n) }
        if let n = try number("REEL_SERVE_RATE", 0.1...1_000_000) { settings.ratePerSecond = n }
        if let n = try number("REEL_SERVE_BURST", 1...1_000_000) { settings.burst = n }
        if let n = try number("REEL_SERVE_STREAMS", 1...10_000) { settings.streamsPerToken = Int(n) }
        if let n = try number("REEL_SERVE_HEADER_TIMEOUT", 0.1...600) { settings.headerTimeout = n }
        if let n = try number("REEL_SERVE_SHUTDOWN_DEADLINE", 0.1...600) { settings.shutdownDeadline = n }
        if let text = environment["REEL_SERVE_ORIGINS"] { settings.allowedOrigins = try parseOrigins(text) }
        if let file = environment["REEL_WITNESS_LOGS"], !file.isEmpty { settings.witnessedLogs = try WitnessedLogs(file: file) }
        return settings
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (all interfaces).
    public static func parseListen(_ text: String) throws -> (host: String, port: Int) {
        let refusal = Failure(.usage, "--listen \(text): expected HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080")
        guard let colon = text.lastIndex(of: ":") else { throw refusal }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { throw refusal }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "0.0.0.0" }
        guard !host.contains(where: { $0 == " " || $0 == "/" }) else { throw refusal }
        return (host, port)
    }

    /// `REEL_SERVE_ORIGINS`: origins (`scheme://host[:port]`, nothing after), separated by commas
    /// or spaces, or `*`; each written as a browser sends it in `Origin` (the scheme and host in
    /// lower case, no default port: `HTTPS://App.example:443` is `https://app.example`), so one
    /// written otherwise still matches. A wildcard inside a host, a bad port or anything after the
    /// host is refused, naming the origin.
    public static func parseOrigins(_ text: String) throws -> [String] {
        try text.split { $0 == "," || $0 == " " }.map { origin in
            if origin == "*" { return "*" }
            let refusal = Failure(
                .usage, "REEL_SERVE_ORIGINS: \(SafeText.line(String(origin))) is not an origin: expected scheme://host[:port] (such as https://app.example), or *")
            let parts = origin.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw refusal }
            let scheme = parts[0].lowercased()
            guard scheme == "http" || scheme == "https" else { throw refusal }
            var host = parts[1].lowercased()
            var port: Int?
            if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
                guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else { throw refusal }
                port = number
                host = String(host[..<colon])
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-[]:")
            guard !host.isEmpty, host.allSatisfy(allowed.contains), !host.hasPrefix("."), !host.hasSuffix(".") else { throw refusal }
            if let port, port != (scheme == "https" ? 443 : 80) { return "\(scheme)://\(host):\(port)" }
            return "\(scheme)://\(host)"
        }
    }
}

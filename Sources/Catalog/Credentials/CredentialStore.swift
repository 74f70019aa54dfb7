import Foundation

/// Where TMDb credentials come from: `TMDB_API_TOKEN` or `TMDB_API_KEY` in the environment
/// first, then `credentials.json` in Reel's XDG config directory (written with mode 0600 in a
/// 0700 directory). Nothing here ever prints a secret.
public struct CredentialStore: Sendable {
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case environment(String)
        case file(String)

        public var description: String {
            switch self {
            case .environment(let name): "the environment (\(name))"
            case .file(let path): path
            }
        }
    }

    public struct Found: Sendable {
        public let credentials: Credentials
        public let source: Source
    }

    public enum StoreError: Error, Sendable, Equatable {
        case unreadable(path: String, reason: String)
        case unwritable(path: String, reason: String)
        case empty
        /// The credential in `source` (a variable's name, the file's path) has whitespace or a
        /// control character inside; the message never shows it.
        case malformed(source: String)
    }

    /// The config file: `$XDG_CONFIG_HOME/reel/credentials.json`, else
    /// `~/.config/reel/credentials.json`.
    public let path: String
    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        path = base + "/reel/credentials.json"
    }

    /// The credentials to use, or nil when none are configured.
    public func load() throws(StoreError) -> Found? {
        if let token = try value("TMDB_API_TOKEN") { return Found(credentials: .bearer(token), source: .environment("TMDB_API_TOKEN")) }
        if let key = try value("TMDB_API_KEY") { return Found(credentials: .apiKey(key), source: .environment("TMDB_API_KEY")) }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Reel's own file, but anything may stand in its place: only a regular file of at most
        // 64 KiB is read (a FIFO would hang every command, /dev/zero would never end).
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "is not a regular file") }
        guard info.st_size <= Self.maximumFileBytes else {
            throw .unreadable(path: path, reason: "is larger than \(Self.maximumFileBytes) bytes, more than a credential takes")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .unreadable(path: path, reason: "is not a JSON object")
        }
        if let token = try (object["tmdb_api_token"] as? String).flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
            return Found(credentials: .bearer(token), source: .file(path))
        }
        if let key = try (object["tmdb_api_key"] as? String).flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
            return Found(credentials: .apiKey(key), source: .file(path))
        }
        throw .unreadable(path: path, reason: "has neither tmdb_api_token nor tmdb_api_key")
    }

    /// The most the config file is read: 64 KiB.
    public static let maximumFileBytes = 65_536

    /// True when the file exists and others than its owner may read or write it.
    public var fileIsExposed: Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = attributes[.posixPermissions] as? NSNumber else { return false }
        return mode.intValue & 0o077 != 0
    }

    /// Writes the credential to the config file atomically (temporary file, then rename), mode
    /// 0600 from the first byte.
    public func save(_ credentials: Credentials) throws(StoreError) {
        guard !credentials.secret.isEmpty else { throw .empty }
        guard Credentials.given(credentials.secret) == .secret(credentials.secret) else { throw .malformed(source: "what was given") }
        let directory = (path as NSString).deletingLastPathComponent
        let name = credentials.isAPIKey ? "tmdb_api_key" : "tmdb_api_token"
        let json = "{\"\(name)\": \(Self.quoted(credentials.secret))}\n"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: directory, reason: "cannot create the directory")
        }
        let temporary = directory + "/.credentials.\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(json.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes the config file; true when there was one.
    @discardableResult
    public func remove() throws(StoreError) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard unlink(path) == 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        return true
    }

    /// The variable's credential; nil when it is unset or blank.
    private func value(_ name: String) throws(StoreError) -> String? {
        try environment[name].flatMap { (raw) throws(StoreError) in try Self.secret(raw, from: name) }
    }

    private static func secret(_ raw: String, from source: String) throws(StoreError) -> String? {
        switch Credentials.given(raw) {
        case .empty: return nil
        case .secret(let secret): return secret
        case .malformed: throw .malformed(source: source)
        }
    }

    private static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

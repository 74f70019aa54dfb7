import Files
public import Foundation
import JSONKit

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
        let bytes: [UInt8]
        do { bytes = try BoundedFile.read(path, limit: Self.maximumFileBytes) } catch {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        guard let object = (try? JSONValue(parsing: bytes))?.objectValue else {
            throw .unreadable(path: path, reason: "is not a JSON object")
        }
        if let token = try object["tmdb_api_token"]?.stringValue.flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
            return Found(credentials: .bearer(token), source: .file(path))
        }
        if let key = try object["tmdb_api_key"]?.stringValue.flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
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

    /// Writes the credential to the config file whole or not at all, mode 0600 from the first
    /// byte, through `OutputFile` (an unnamed file linked in, or a randomly named one renamed
    /// over the old file; the file and its directory synced). Only a new file or a regular one
    /// is written: a symbolic link or anything else at the path is refused and left as it is.
    public func save(_ credentials: Credentials) throws(StoreError) {
        guard !credentials.secret.isEmpty else { throw .empty }
        guard Credentials.given(credentials.secret) == .secret(credentials.secret) else { throw .malformed(source: "what was given") }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: directory, reason: "cannot create the directory")
        }
        do {
            try OutputFile.write(Self.fileBytes(credentials), to: path)
        } catch {
            throw .unwritable(path: path, reason: Self.reason(error))
        }
    }

    /// The file's bytes, as they have always been: `{"tmdb_api_token": "..."}` and a line break.
    static func fileBytes(_ credentials: Credentials) -> [UInt8] {
        var bytes = Array("{".utf8)
        JSONValue.writeString(credentials.isAPIKey ? "tmdb_api_key" : "tmdb_api_token", to: &bytes)
        bytes.append(contentsOf: ": ".utf8)
        JSONValue.writeString(credentials.secret, to: &bytes)
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    /// What follows "cannot write PATH: " for a failed write.
    private static func reason(_ error: OutputFileError) -> String {
        switch error {
        case .permission(_, let reason), .writeFailed(_, let reason): reason
        case .notRegularFile(_, let kind): "it is \(kind)"
        case .noDirectory(_, let directory): "the directory \(directory) does not exist"
        case .invalidPath: "it is not the path of a file"
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
}

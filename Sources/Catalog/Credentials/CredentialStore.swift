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
        /// control character inside; the message never shows it. `service`: TMDb, OMDb.
        case malformed(source: String, service: String)
    }

    /// The config file: `$XDG_CONFIG_HOME/reel/credentials.json`, else
    /// `~/.config/reel/credentials.json`.
    public let path: String
    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        path = CredentialFile.directory(environment) + "/credentials.json"
    }

    /// The credentials to use, or nil when none are configured.
    public func load() throws(StoreError) -> Found? {
        if let token = try value("TMDB_API_TOKEN") { return Found(credentials: .bearer(token), source: .environment("TMDB_API_TOKEN")) }
        if let key = try value("TMDB_API_KEY") { return Found(credentials: .apiKey(key), source: .environment("TMDB_API_KEY")) }
        guard let object = try CredentialFile.readObject(path) else { return nil }
        if let token = try object["tmdb_api_token"]?.stringValue.flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
            return Found(credentials: .bearer(token), source: .file(path))
        }
        if let key = try object["tmdb_api_key"]?.stringValue.flatMap({ (raw) throws(StoreError) in try Self.secret(raw, from: path) }) {
            return Found(credentials: .apiKey(key), source: .file(path))
        }
        throw .unreadable(path: path, reason: "has neither tmdb_api_token nor tmdb_api_key")
    }

    /// The most the config file is read: 64 KiB.
    public static let maximumFileBytes = CredentialFile.maximumBytes

    /// True when the file exists and others than its owner may read or write it.
    public var fileIsExposed: Bool { CredentialFile.isExposed(path) }

    /// Writes the credential to the config file whole or not at all, mode 0600 from the first
    /// byte, through `OutputFile` (an unnamed file linked in, or a randomly named one renamed
    /// over the old file; the file and its directory synced). Only a new file or a regular one
    /// is written: a symbolic link or anything else at the path is refused and left as it is.
    public func save(_ credentials: Credentials) throws(StoreError) {
        guard !credentials.secret.isEmpty else { throw .empty }
        guard Credentials.given(credentials.secret) == .secret(credentials.secret) else { throw .malformed(source: "what was given", service: "TMDb") }
        try CredentialFile.write(Self.fileBytes(credentials), to: path)
    }

    /// The file's bytes, as they have always been: `{"tmdb_api_token": "..."}` and a line break.
    static func fileBytes(_ credentials: Credentials) -> [UInt8] {
        CredentialFile.object(credentials.isAPIKey ? "tmdb_api_key" : "tmdb_api_token", credentials.secret)
    }

    /// Removes the config file; true when there was one.
    @discardableResult
    public func remove() throws(StoreError) -> Bool { try CredentialFile.remove(path) }

    /// The variable's credential; nil when it is unset or blank.
    private func value(_ name: String) throws(StoreError) -> String? {
        try environment[name].flatMap { (raw) throws(StoreError) in try Self.secret(raw, from: name) }
    }

    private static func secret(_ raw: String, from source: String) throws(StoreError) -> String? {
        try CredentialFile.secret(raw, from: source, service: "TMDb")
    }
}

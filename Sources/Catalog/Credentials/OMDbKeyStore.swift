public import Foundation
import JSONKit

/// Where the OMDb key comes from: `OMDB_API_KEY` in the environment first, then `omdb.json`
/// beside TMDb's `credentials.json` in Reel's config directory, with the same rules (a small
/// regular file, written whole with mode 0600 in a 0700 directory, never printed).
public struct OMDbKeyStore: Sendable {
    public struct Found: Sendable {
        public let key: OMDbKey
        public let source: CredentialStore.Source
    }

    /// `$XDG_CONFIG_HOME/reel/omdb.json`, else `~/.config/reel/omdb.json`.
    public let path: String
    /// The salt of the budget's slots (`budgetSlot`): beside the key, never in the cache store.
    let saltPath: String
    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        let directory = CredentialFile.directory(environment)
        path = directory + "/omdb.json"
        saltPath = directory + "/omdb-budget-salt"
    }

    /// The key to use, or nil when none is configured.
    public func load() throws(CredentialStore.StoreError) -> Found? {
        if let raw = environment["OMDB_API_KEY"], let key = try CredentialFile.secret(raw, from: "OMDB_API_KEY", service: "OMDb") {
            return Found(key: OMDbKey(key), source: .environment("OMDB_API_KEY"))
        }
        guard let object = try CredentialFile.readObject(path) else { return nil }
        guard let raw = object["omdb_api_key"]?.stringValue, let key = try CredentialFile.secret(raw, from: path, service: "OMDb") else {
            throw .unreadable(path: path, reason: "has no omdb_api_key")
        }
        return Found(key: OMDbKey(key), source: .file(path))
    }

    /// True when the file exists and others than its owner may read or write it.
    public var fileIsExposed: Bool { CredentialFile.isExposed(path) }

    /// Writes `{"omdb_api_key": "..."}` whole or not at all (see `CredentialStore.save`).
    public func save(_ key: OMDbKey) throws(CredentialStore.StoreError) {
        guard !key.secret.isEmpty else { throw .empty }
        guard Credentials.given(key.secret) == .secret(key.secret) else { throw .malformed(source: "what was given", service: "OMDb") }
        try CredentialFile.write(CredentialFile.object("omdb_api_key", key.secret), to: path)
    }

    /// Removes `omdb.json`; true when there was one.
    @discardableResult
    public func remove() throws(CredentialStore.StoreError) -> Bool { try CredentialFile.remove(path) }
}

import Catalog
import EventLog
import Foundation

extension Application {
    /// Where the application keeps its data and how it reaches the catalog; a front end fills it
    /// in from its flags and the environment.
    public struct Configuration: Sendable {
        /// The data directory: `ledger/`, `keys/`, `cache/`.
        public var dataDirectory: String
        /// Answer catalog requests from the cache only.
        public var offline: Bool
        /// The variables credentials, the TMDb base URL and the request limits are read from.
        public var environment: [String: String]
        /// The PostgreSQL store's URL (`--store`); `nil` for `REEL_STORE` in `environment`, else the
        /// LMDB store in the data directory.
        public var store: String?
        /// Where notes about the catalog go (no credentials, a damaged cache, a file readable by
        /// others): a front end shows them as it shows notes, routine ones as often as it likes.
        public var notice: @Sendable (Notice) -> Void
        /// Told of each write transaction of the command path (`CommandCommitter`) once it is committed (on the
        /// committing thread: keep it short).
        public var commitObserver: @Sendable (CommitFigures) -> Void

        public init(
            dataDirectory: String, store: String? = nil, offline: Bool = false, environment: [String: String] = [:],
            notice: @escaping @Sendable (Notice) -> Void = { _ in }, commitObserver: @escaping @Sendable (CommitFigures) -> Void = { _ in }
        ) {
            self.dataDirectory = dataDirectory
            self.store = store
            self.offline = offline
            self.environment = environment
            self.notice = notice
            self.commitObserver = commitObserver
        }

        /// The store to use: `store`, else `REEL_STORE`; `nil` (neither, or empty) for the LMDB store
        /// in the data directory.
        public var storeURL: String? {
            if let store, !store.isEmpty { return store }
            let value = environment["REEL_STORE"] ?? ""
            return value.isEmpty ? nil : value
        }

        /// Where the stores' keyrings live (the key-encryption keys the account keys are wrapped
        /// under, kept apart from the data they open): `REEL_KEYRING`, else `reel/keyrings/` in the
        /// configuration directory (`$XDG_CONFIG_HOME`, else `~/.config`), outside the data
        /// directory, so a copy of the data directory (or of the database) made before a deletion
        /// never carries the key that opens what it deleted. Every host of one store must use the
        /// same keyring.
        public var keyringDirectory: String {
            let value = environment["REEL_KEYRING"] ?? ""
            if !value.isEmpty { return value }
            let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
            return config + "/reel/keyrings"
        }

        /// `REEL_TMDB_BASE_URL`, else TMDb's.
        public var catalogBaseURL: String {
            let value = environment["REEL_TMDB_BASE_URL"] ?? ""
            return value.isEmpty ? CatalogClient.defaultBaseURL : value
        }

        /// `REEL_OMDB_BASE_URL`, else OMDb's.
        public var omdbBaseURL: String {
            let value = environment["REEL_OMDB_BASE_URL"] ?? ""
            return value.isEmpty ? HTTPOMDbTransport.defaultBaseURL : value
        }

        /// Where OMDb's daily budget is counted: beside the response cache, which `cache clear`
        /// empties without touching it.
        public var omdbBudgetDirectory: String { cacheDirectory + "/omdb-budget" }

        /// Where the TMDb response cache lives.
        public var cacheDirectory: String { AccountService.catalogCacheDirectory(in: dataDirectory) }

        /// Where the image cache lives.
        public var imageCacheDirectory: String { AccountService.imageCacheDirectory(in: dataDirectory) }
    }
}

/// Where this installation keeps its data and how it seals it: what `reel about` shows, so a
/// person knows which files hold their history before they back them up or delete them.
public struct AboutReport: Sendable, Equatable {
    /// TMDb's attribution, which every front end shows where it names its data source.
    public static let attribution = "This product uses the TMDB API but is not endorsed or certified by TMDB."
    /// Where movie and series data come from.
    public static let dataSource = "Movie and series data: The Movie Database (TMDB), https://www.themoviedb.org"

    /// OMDb's attribution and licence, shown wherever its facts are named.
    public static let omdbLicense = "Critics' scores and awards: The Open Movie Database (OMDb), https://www.omdbapi.com, licensed CC BY-NC 4.0 (non-commercial use, with attribution)"

    /// The data directory the application was configured with.
    public let dataDirectory: String
    /// The event log, the projections and the photos.
    public let ledgerDirectory: String
    /// The per-account keys (kept apart from the ledger, so a crypto-shredded key leaves no copy).
    public let keysDirectory: String
    /// Whether a ledger (or its key store) is there yet; the first change makes one.
    public let ledgerExists: Bool
    /// The AES-256-GCM implementation sealing bulk payloads: `libcrypto` or `swift-crypto`.
    public let bulkCipher: String
    /// The PostgreSQL store the ledger is in instead (`--store`, `REEL_STORE`), as its URL without
    /// the password (or a shard map's path); `nil` for the LMDB store in the data directory.
    public let store: String?

    public init(dataDirectory: String, ledgerDirectory: String, keysDirectory: String, ledgerExists: Bool, bulkCipher: String, store: String? = nil) {
        self.dataDirectory = dataDirectory
        self.ledgerDirectory = ledgerDirectory
        self.keysDirectory = keysDirectory
        self.ledgerExists = ledgerExists
        self.bulkCipher = bulkCipher
        self.store = store
    }

    /// True when OpenSSL's libcrypto seals the payloads (the fast path), false for swift-crypto.
    public var usesLibcrypto: Bool { bulkCipher == "libcrypto" }
}

import Catalog

/// Where OMDb's facts come from, the day's budget, and how far the saved list has been filled
/// in: what `reel omdb status` shows.
public struct OMDbStatusReport: Sendable {
    /// `omdb` (a key), `sample` (the sample catalog's facts), `off` (TMDb credentials, no OMDb key).
    public let source: String
    /// Where the key was found (`the environment (OMDB_API_KEY)`, a path); never the key.
    public let keySource: String?
    /// Reel's own OMDb key file (`reel omdb login` writes it).
    public let keyFile: String
    public let baseURL: String
    /// The day's use of the budget (nil without a key).
    public let used: Int?
    public let limit: Int?
    /// How much of the limit bulk work (filling lists) may use.
    public let bulkLimit: Int?
    /// When the count starts again: the next midnight UTC (microseconds since 1970).
    public let resetsAt: Int64?
    /// Whether processes share the count (false when the budget store could not be opened).
    public let shared: Bool
    public let saved: SavedCoverage
    /// OMDb's answer to a check (`--check`): nil when not asked.
    public let check: OMDbLookup?

    /// How much of the account's saved list has OMDb's scores, read from the caches alone.
    public struct SavedCoverage: Sendable, Equatable {
        public var titles = 0
        /// Titles whose TMDb details are not cached yet (their IMDb id is unknown).
        public var detailsMissing = 0
        /// Titles TMDb links to no IMDb id.
        public var withoutIMDbID = 0
        /// Titles with OMDb's answer cached (fresh or not), of which OMDb did not know `unknownToOMDb`.
        public var answered = 0
        public var unknownToOMDb = 0
        /// Of `answered`, those older than a week (asked again when the list is next shown).
        public var stale = 0
        /// Titles with an IMDb id that OMDb has not answered for yet.
        public var waiting = 0
    }
}

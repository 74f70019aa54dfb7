/// What asking for one title's OMDb facts came to. A failure is never an error: the title is
/// shown with TMDb's details alone, and `reason` says why (once, through the client's notice).
public enum OMDbLookup: Sendable, Equatable {
    /// OMDb's facts, from OMDb or the cache (`stale`: older than a week, served because OMDb
    /// could not be asked: offline, the budget spent, OMDb unavailable).
    case found(OMDbTitle, stale: Bool)
    /// OMDb does not know the title ("Incorrect IMDb ID.", "Movie not found!").
    case missing
    /// Not asked, or asked in vain.
    case unavailable(OMDbFailure)

    public var title: OMDbTitle? {
        if case .found(let title, _) = self { return title }
        return nil
    }
}

/// Why OMDb's facts could not be had.
public enum OMDbFailure: Sendable, Equatable, CustomStringConvertible {
    /// The day's budget (`REEL_OMDB_DAILY`) is spent, by Reel's count or by OMDb's word
    /// ("Request limit reached!"); `bulk`: the part bulk work may use.
    case budgetSpent(limit: Int, resetsAt: Int64, bulk: Bool)
    /// OMDb refused the key ("Invalid API key!").
    case keyRefused(String)
    /// Offline, and the cache has no answer.
    case notCached
    /// OMDb could not be reached or answered what makes no sense.
    case unavailable(String)
    /// The TMDb title carries no IMDb id (or one that is not an IMDb id).
    case noIMDbID

    public var description: String {
        switch self {
        case .budgetSpent(let limit, _, let bulk):
            bulk
                ? "OMDb's daily budget for filling lists is spent (\(limit - OMDbBudget.bulkCeiling(of: limit)) of the \(limit) requests are kept for titles you open)"
                : "OMDb's daily budget of \(limit) requests is spent"
        case .keyRefused(let message): "OMDb refused the key (\(message))"
        case .notCached: "OMDb's answer is not cached (offline)"
        case .unavailable(let reason): "OMDb is unavailable (\(reason))"
        case .noIMDbID: "TMDb has no IMDb id for this title"
        }
    }
}

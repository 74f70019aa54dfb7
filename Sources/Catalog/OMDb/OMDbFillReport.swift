/// What filling in OMDb's facts for a list of titles did.
public struct OMDbFillReport: Sendable, Equatable {
    /// Titles with an IMDb id whose facts were missing or older than a week.
    public var wanted = 0
    /// Of those, answered by OMDb now: with facts, or that it does not know the title.
    public var found = 0
    public var missing = 0
    /// Asked in vain (OMDb unavailable): they are asked again next time.
    public var failed = 0
    /// Why filling stopped before the end (the budget, a refused key, OMDb unavailable, offline).
    public var stopped: OMDbFailure?

    public init() {}

    /// Titles still waiting for OMDb.
    public var left: Int { max(0, wanted - found - missing) }
}

import Catalog
import EventLog
import Ledger

/// The saved list as asked for: its items in order with their catalog details, and what a reader
/// should know about missing details.
public struct SavedListReport: Sendable {
    public struct Item: Sendable {
        public let saved: SavedItem
        public let lookup: TitleLookup
        /// OMDb's scores of the title, when known (nil: OMDb is off, has not answered yet, or the
        /// title has no IMDb id).
        public let omdb: OMDbScores?
    }

    public let handle: AccountHandle
    /// `nil` when the account has not been opened yet (nothing saved, ever).
    public let stream: StreamID?
    /// The point the list was read as of; `nil`: now.
    public let asOf: AsOf?
    /// The language details are in: the one the account reads now, also for a past list.
    public let language: String
    /// How many titles are saved, before filtering.
    public let total: Int
    public let items: [Item]
    public let notices: [String]
    /// What filling in OMDb's scores did (nil when OMDb is off or nothing was missing).
    public let omdbFill: OMDbFillReport?
    /// How long the same question would get this same answer (nil: it may differ at once, as
    /// details or scores are still missing): for front ends that keep answers (the service).
    public let validity: ReadValidity?

    func valid(_ validity: ReadValidity) -> SavedListReport {
        SavedListReport(
            handle: handle, stream: stream, asOf: asOf, language: language, total: total, items: items, notices: notices, omdbFill: omdbFill,
            validity: validity)
    }

    /// Items without catalog details.
    public var detailsMissing: Int {
        items.reduce(0) { count, item in if case .known = item.lookup { count } else { count + 1 } }
    }
}

/// Everything the projections know of one account: its lifecycle, saved list and settings, and
/// how far into its stream they are. Built only by `apply`, so replaying the same events always
/// gives the same state.
public struct AccountState: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        case open
        case deleted
        /// Moved to another shard (`account-moved-out`): it lives on there, not here.
        case moved
    }

    public private(set) var handle: AccountHandle?
    public private(set) var status: Status = .open
    public private(set) var saved = SavedList()
    public private(set) var settings = Settings()
    /// The stream version of the last event applied (0: none).
    public private(set) var version: UInt64 = 0
    /// The log position of the last event applied (0: none).
    public private(set) var lastPosition: UInt64 = 0
    public private(set) var openedAt: Int64?
    public private(set) var deletedAt: Int64?

    public init() {}

    /// Restores a state exactly as stored (the projection store's codec uses this).
    public init(
        handle: AccountHandle?, status: Status, saved: SavedList, settings: Settings, version: UInt64, lastPosition: UInt64,
        openedAt: Int64?, deletedAt: Int64?
    ) {
        self.handle = handle
        self.status = status
        self.saved = saved
        self.settings = settings
        self.version = version
        self.lastPosition = lastPosition
        self.openedAt = openedAt
        self.deletedAt = deletedAt
    }

    public mutating func apply(_ recorded: RecordedDomainEvent) {
        switch recorded.event {
        case .accountOpened(let handle):
            self.handle = handle
            openedAt = recorded.recordedAt
        case .accountDeleted:
            status = .deleted
            deletedAt = recorded.recordedAt
        case .accountMovedOut:
            status = .moved
        default:
            break
        }
        saved.apply(recorded)
        settings.apply(recorded)
        version = recorded.streamVersion
        lastPosition = recorded.position
    }

    /// Counts an event the projections do not interpret (an unknown type, or a shredded payload),
    /// so the state still knows how far into the stream it is.
    public mutating func skip(position: UInt64, streamVersion: UInt64) {
        version = streamVersion
        lastPosition = position
    }

    public static func replaying(_ events: some Sequence<RecordedDomainEvent>) -> AccountState {
        var state = AccountState()
        for event in events { state.apply(event) }
        return state
    }
}

import EventLog
import Foundation
import Ledger

/// Views: the projections read live, or the log replayed for a point in the past.
extension AccountService {
    /// The account's saved list and settings: live, or as of a point in its past.
    public func view(of handle: AccountHandle, asOf: AsOf? = nil) throws -> AccountView {
        guard let asOf else {
            // Kept for the next read (`AccountStates`), which then knows the account's stream.
            let generation = states.generation
            let read = { (floor: ReadFloor) in
                try self.log.read(atLeast: floor) { txn in
                    let slot = try self.store.liveSlot(txn)
                    guard let stream = try self.store.stream(for: handle, slot, txn), let state = try self.store.state(of: stream, slot, txn) else {
                        throw try self.missing(handle, txn)
                    }
                    return AccountView(handle: handle, stream: stream, state: state, asOf: nil)
                }
            }
            let floor = try liveFloor(of: handle)
            var view = try read(floor)
            // The handle names another stream than the floor's (deleted and opened again, by
            // another process): the floor said nothing of the new one, so the read is made again
            // at the log's head as the primary has it.
            if case .version(_, let stream) = floor, view.stream != stream { view = try read(.position(try log.head()?.position ?? 0)) }
            states.keep(view, readIn: generation)
            return view
        }
        let stream = try resolve(handle)
        let all = try log.read(stream: stream, from: 1, maxCount: .max)
        try checkReached(asOf, streamVersion: all.last?.streamVersion ?? 0, of: handle)
        let events = all.filter {
            asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.envelope.firstRecordedAtMicroseconds)
        }
        guard !events.isEmpty else {
            throw ReelError.asOfOutOfRange("the account '\(handle)' had no events at \(asOf.description) or before")
        }
        var state = AccountState()
        for event in events { try projector.apply(event, to: &state) }
        return AccountView(handle: handle, stream: stream, state: state, asOf: asOf)
    }

    /// What a live read of `handle` must hold where a copy that lags may answer it (a standby):
    /// its stream at the version the store's primary has now, or, when which stream the handle
    /// names is not known here, the whole log up to its head now. So a read never misses a change
    /// acknowledged before it began, by this process or any other. Nothing to ask of a store that
    /// is always current.
    func liveFloor(of handle: AccountHandle) throws -> ReadFloor {
        guard log.readsFromCopies else { return .position(0) }
        if let stream = states.stream(of: handle) { return .version(try log.version(of: stream), of: stream) }
        return .position(try log.head()?.position ?? 0)
    }

    /// The view of `handle`'s open account kept from a commit or an earlier read, if its stream
    /// is still at that view's version (one read of the stream's version); else `nil`.
    func keptView(of handle: AccountHandle) throws -> AccountView? {
        try states.view(of: handle) { try log.version(of: $0) }
    }

    /// The account's events, oldest first: all, or up to a point; the last `limit` of them.
    public func history(of handle: AccountHandle, asOf: AsOf? = nil, limit: Int? = nil) throws -> (StreamID, [HistoryEntry]) {
        let stream = try resolve(handle)
        var events = try log.read(stream: stream, from: 1, maxCount: .max)
        if let asOf {
            try checkReached(asOf, streamVersion: events.last?.streamVersion ?? 0, of: handle)
            events = events.filter {
                asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.envelope.firstRecordedAtMicroseconds)
            }
        }
        if let limit, events.count > limit { events.removeFirst(events.count - limit) }
        return (stream, try events.map { HistoryEntry($0, decoded: try projector.decoded($0)) })
    }

    /// Refuses a point past the end, a stream version the account has not reached or a position
    /// the log has not: it would show today's state labelled as a point that never was.
    func checkReached(_ asOf: AsOf, streamVersion last: UInt64, of handle: AccountHandle) throws {
        switch asOf {
        case .streamVersion(let version) where version > last:
            throw ReelError.asOfOutOfRange("the account '\(handle)' has reached stream version \(last); \(asOf.description) is past its end")
        case .position(let position):
            let head = try log.head()?.position ?? 0
            if position > head { throw ReelError.asOfOutOfRange("the ledger ends at position \(head); \(asOf.description) is past its end") }
        default:
            break
        }
    }

    /// The open account of `handle`, else its most recently deleted one.
    func resolve(_ handle: AccountHandle) throws -> StreamID {
        try log.read { txn in
            let slot = try store.liveSlot(txn)
            if let stream = try store.stream(for: handle, slot, txn) { return stream }
            guard let latest = try latestDeleted(handle, txn) else { throw ReelError.noAccount(handle.value) }
            return latest.stream
        }
    }

    /// The stream of `handle`'s open account; `nil` when it has none (never opened, or deleted).
    /// One read of the handle directory, nothing decoded.
    @_spi(Stores) public func openStream(_ handle: AccountHandle) throws -> StreamID? {
        try log.read { txn in try store.stream(for: handle, try store.liveSlot(txn), txn) }
    }

    /// Why `handle` has no open account: it never had one, or it was deleted.
    func missing(_ handle: AccountHandle, _ txn: any EventStoreSnapshot) throws -> ReelError {
        guard let deleted = try latestDeleted(handle, txn) else { return .noAccount(handle.value) }
        return .accountDeleted(handle.value, at: deleted.deletedAt)
    }

    func latestDeleted(_ handle: AccountHandle, _ txn: any EventStoreSnapshot) throws -> DeletedAccount? {
        try store.deletedAccounts(txn).values.filter { $0.belongs(to: handle) }.max { $0.deletedAt < $1.deletedAt }
    }

    /// The deleted account `handle` had most recently, if any (its handle is known only as a digest).
    public func deletedAccount(_ handle: AccountHandle) throws -> DeletedAccount? {
        try log.read { txn in try latestDeleted(handle, txn) }
    }

    /// Every account the ledger holds: open ones by handle, then deleted ones (whose handles are
    /// no longer known) by stream.
    public func accounts() throws -> [AccountSummary] {
        let streams = try log.streams()
        let (states, deleted) = try log.read { txn in
            (try store.allStates(try store.liveSlot(txn), txn), try store.deletedAccounts(txn))
        }
        return try streams.map { summary in
            let state = states[summary.stream]
            let record = deleted[summary.stream]
            // Neither open nor deleted here: moved to another shard once its last event says so.
            let status = try state?.status ?? (record == nil && movedAway(summary) ? .moved : .deleted)
            return AccountSummary(
                handle: state?.handle, stream: summary.stream, status: status, events: summary.version,
                saved: state?.saved.count ?? 0, openedAt: state?.openedAt ?? record?.openedAt, deletedAt: state?.deletedAt ?? record?.deletedAt)
        }.sorted(by: AccountSummary.listed)
    }

    /// Whether the stream's last event is `account-moved-out`: the account lives on another shard.
    private func movedAway(_ summary: StreamSummary) throws -> Bool {
        try log.read(stream: summary.stream, from: summary.version, maxCount: 1).first?.type == DomainEvent.accountMovedOutType
    }
}

import EventLog
import Ledger

/// What account tokens need of the ledger: which account a handle opens now, and whose the
/// accounts of some streams are, read from the projections as they are (not a view cached
/// earlier in the process, which another process may have changed since).
extension AccountService {
    /// The stream of `handle`'s open account now; `nil` when it has none (never had, or deleted).
    func openStream(of handle: AccountHandle) throws -> StreamID? {
        try log.read { txn in try store.stream(for: handle, try store.liveSlot(txn), txn) }
    }

    /// The handle of each of `streams` that is an open account now, read in one snapshot; a
    /// deleted account's stream has none (its state and handle are gone with its key). An account
    /// moving to another shard (`moved` here) is one still: its tokens stay listed while it moves.
    @_spi(Stores) public func openHandles(of streams: Set<StreamID>) throws -> [StreamID: AccountHandle] {
        guard !streams.isEmpty else { return [:] }
        return try log.read { txn in
            let slot = try store.liveSlot(txn)
            var handles: [StreamID: AccountHandle] = [:]
            for stream in streams {
                guard let state = try store.state(of: stream, slot, txn), state.status == .open || state.status == .moved, let handle = state.handle,
                    try store.stream(for: handle, slot, txn) == stream
                else { continue }
                handles[stream] = handle
            }
            return handles
        }
    }

    /// The projection tables the events cannot make again (photos, deleted accounts): a copy of
    /// the ledger copies them beside the events (`reel store copy`).
    @_spi(Stores) public static var tablesKeptBesideTheLog: [String] { ProjectionStore.keptBesideTheLog }
}

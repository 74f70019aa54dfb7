import EventLog
import Foundation
import Ledger

/// Reel's application service: commands become events through the domain's decisions, appended
/// with the projections updated in the same write transaction; views read the projections, or
/// replay the log for a point in the past.
public final class AccountService: Sendable {
    public let log: any EventStore
    let store: ProjectionStore
    let projector: Projector
    /// The accounts' states committed or read lately by this process: the one cache of account
    /// state, checked by stream version (`AccountStates`).
    let states = AccountStates()
    /// Which stream ids new accounts take (all of them, but on a shard of a sharded ledger).
    let placement: StreamPlacement

    /// Reel over `log`, any store behind the boundary. `decoder` reads stored events (tests pass one
    /// with extra upcasters); new accounts take stream ids `placement` takes.
    public init(log: any EventStore, decoder: EventDecoder = .standard, placement: StreamPlacement = .anywhere) throws {
        self.log = log
        self.placement = placement
        store = try ProjectionStore(log: log)
        projector = Projector(decoder: decoder)
        try upgradeProjectionsIfNeeded()
        try catchUpIfNeeded()
    }

    /// Projections of an older format (handles in the clear) are rebuilt in the current one.
    private func upgradeProjectionsIfNeeded() throws {
        let format = try log.read { txn in try txn.table(store.control).get(Array("format".utf8)) }
        guard format != Array(ProjectionStore.format.utf8) else { return }
        if try log.head() == nil {
            try log.write(shredding: { _ in }) { w in try w.table(store.control).put(Array("format".utf8), Array(ProjectionStore.format.utf8)) }
        } else {
            _ = try rebuild(checkOnly: false, compare: false, progress: nil)
        }
    }

    /// Applies events the projections have not seen (appended by another program, or before the
    /// projections existed). Returns how many.
    @discardableResult
    public func catchUpIfNeeded() throws -> Int {
        let behind = try log.read { txn in
            try store.checkpoint(try store.liveSlot(txn), txn)
        } < (try log.head()?.position ?? 0)
        guard behind else { return 0 }
        return try log.write(shredding: { _ in }) { try store.catchUp($0, projector: projector) }
    }
}

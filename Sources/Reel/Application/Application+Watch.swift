import EventLog
import Ledger

extension Application {
    /// The account of `handle` as it changes, by this process or any other (`reel fav add` in
    /// another terminal): the stream version of each change, from the log's catch-up
    /// subscription, and 0 once at the start (a change may have come just before it). The
    /// account's view read before a change is forgotten first, so the next use case reads it.
    /// Moved to another shard (`reel store move`), it is followed there from its arrival: 0
    /// again, then each change made there, one made before the new shard was reached included.
    ///
    /// For a front end that stays open for hours (the terminal app): the subscription reads in
    /// short read transactions and holds none while it waits, so other processes' changes,
    /// deletions included, never wait for it. Without a ledger it looks every `interval` until
    /// one is made. Changes come at most one behind: a burst is said once.
    public func accountChanges(of handle: AccountHandle, interval: Duration = .milliseconds(250)) -> AsyncThrowingStream<UInt64, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    try await follow(handle, interval: interval) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func follow(_ handle: AccountHandle, interval: Duration, _ changed: (UInt64) -> Void) async throws {
        // The ledger (shard) the account moved away from, whose log has nothing more of it, and
        // the version of its departure there: the version of its arrival on its new shard.
        var left: ObjectIdentifier?
        var departure: UInt64?
        while true {
            var ledger = try ledgerOnceMade(for: handle)
            while ledger == nil || ledger.map(ObjectIdentifier.init) == left {
                try await Task.sleep(for: interval)
                ledger = try ledgerOnceMade(for: handle)
            }
            guard let ledger else { return }
            let log = ledger.log
            var stream = try? ledger.resolve(handle)
            // Followed on from the head, or, on the shard it moved to, from its arrival there: a
            // change made there between the arrival and this subscription is said too.
            var from = (try log.head()?.position ?? 0) + 1
            if let departure, let stream, let arrival = try? log.read(stream: stream, from: departure, maxCount: 1).first,
                arrival.type == DomainEvent.accountMovedInType
            {
                from = min(from, arrival.position)
            }
            changed(0)
            for try await message in log.subscribe(from: from) {
                guard case .event(let event) = message else { continue }
                // Another stream's event may be this handle's new account (a first change, or one
                // after a deletion): the handle is resolved again then.
                if event.streamID != stream { stream = try? ledger.resolve(handle) }
                guard event.streamID == stream else { continue }
                changed(event.streamVersion)
                // Moved to another shard (`reel store move`): followed there once it is served
                // there.
                if event.type == DomainEvent.accountMovedOutType {
                    left = ObjectIdentifier(ledger)
                    departure = event.streamVersion
                    break
                }
            }
            if left != ObjectIdentifier(ledger) { return }
        }
    }

    /// The ledger, looked for again when there was none before (another process may have made
    /// it since); `nil` while there is none.
    private func ledgerOnceMade(for handle: AccountHandle) throws -> AccountService? {
        if router.dataDirectoryHoldsLedger { forgetMissingLedger() }
        return try existingLedger(for: handle)
    }
}

import Dispatch
public import EventLog
import Foundation

/// Holds a store's single writer from another thread (an empty write transaction left open), so
/// that commands submitted meanwhile queue up and the tests know which ones share a batch.
public final class WriterHold: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Returns once the transaction is open.
    public init(_ log: any EventStore) {
        Thread.detachNewThread { [self] in
            _ = try? log.write { _ in
                entered.signal()
                release.wait()
            }
            done.signal()
        }
        entered.wait()
    }

    /// Ends the transaction (nothing written) and waits until the writer is free.
    public func end() {
        release.signal()
        done.wait()
    }
}

/// Whether `condition` comes to hold, waited for (`waitFor`, at its default bound): for a state
/// another thread reaches.
public func eventually(_ condition: () -> Bool) async -> Bool {
    do {
        try await waitFor("a state another thread reaches") { condition() }
        return true
    } catch {
        return false
    }
}

import Foundation
import PostgresNIO

/// The answers of one connection's statements (`PostgresLink`), kept where the thread that sent
/// them waits for them without going through the driver's event loop.
///
/// The driver answers on its event loop, and its own blocking wait (`EventLoopFuture.wait`)
/// hands a callback to that loop even for an answer already there: a round trip between two
/// threads for every statement waited for, each a wake-up the machine's busy cores may keep
/// waiting. Here each statement's answer is put in its slot (`Slot`) as it comes, by a callback
/// registered when the statement is sent; a wait for an answer already in is a lock taken and
/// dropped, and one for an answer to come sleeps on a condition until it is in, or until the
/// time limit. (Registering that callback from the sender's thread hands the loop a task, as
/// sending the statement does; neither is waited for.)
final class StatementAnswers: @unchecked Sendable {
    /// Where one statement's answer goes: its rows, or its failure.
    final class Slot: @unchecked Sendable {
        /// Guarded by the answers' lock.
        fileprivate var result: Result<[PostgresRow], any Error>?
    }

    private let condition = NSCondition()
    /// Slots not answered yet, failed should the connection close.
    private var pending: [ObjectIdentifier: Slot] = [:]
    /// Why the connection closed, once it has: every slot opened after fails so at once.
    private var closed: (any Error)?

    /// A slot for a statement about to be handed to the driver; failed already (with why) when
    /// the connection is closed, the statement then not to be sent.
    func open() -> (slot: Slot, closed: Bool) {
        let slot = Slot()
        condition.lock()
        defer { condition.unlock() }
        if let closed {
            slot.result = .failure(closed)
            return (slot, true)
        }
        pending[ObjectIdentifier(slot)] = slot
        return (slot, false)
    }

    /// Puts `result` in `slot`, unless it holds one already (a close came first).
    func fill(_ slot: Slot, with result: Result<[PostgresRow], any Error>) {
        condition.lock()
        if slot.result == nil { slot.result = result }
        pending[ObjectIdentifier(slot)] = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Fails every slot not answered yet with `reason`, and every one opened from now on (the
    /// first reason given stays).
    func close(_ reason: any Error) {
        condition.lock()
        if closed == nil { closed = reason }
        for slot in pending.values where slot.result == nil { slot.result = .failure(closed!) }
        pending = [:]
        condition.broadcast()
        condition.unlock()
    }

    /// `slot`'s answer, waited for until `deadline`: `nil` when it is not in by then. The
    /// condition's own time is the wall clock's, which can step: it waits a second at most at a
    /// time, `deadline` read on the monotonic clock between.
    func wait(for slot: Slot, until deadline: ContinuousClock.Instant) -> Result<[PostgresRow], any Error>? {
        condition.lock()
        defer { condition.unlock() }
        while slot.result == nil {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            let (seconds, attoseconds) = min(left, .seconds(1)).components
            _ = condition.wait(until: Date(timeIntervalSinceNow: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18))
        }
        return slot.result
    }
}

import EventLog
import Foundation
import Ledger
import Synchronization

/// Each account's events as they are appended, by this process or another, fanned out from one
/// catch-up subscription of the log per process: a thousand listeners cost one reader, not a
/// thousand (the HTTP service's event streams).
///
/// A listener names the last stream version it has (`after`); it first gets the account's events
/// after that one from its stream's history, then the live ones, each version once and in order:
/// live events that arrive while the history is read are held and given after it, and anything
/// the history already gave is skipped.
final class AccountFeed: Sendable {
    /// One listener: where it is, and what it was given.
    private struct Listener {
        let continuation: AsyncThrowingStream<HistoryEntry, any Error>.Continuation
        /// While the history is read, live events wait here.
        var held: [HistoryEntry]? = []
        var last: UInt64
    }

    private struct State {
        var byStream: [StreamID: [UUID: Listener]] = [:]
        /// Listeners of handles with no account yet, moved to their stream when it opens.
        var unopened: [AccountHandle: [UUID: Listener]] = [:]
        var reader: Task<Void, Never>?
    }

    /// More events than this waiting for one slow listener end its stream (`AccountFeed.Overrun`):
    /// it reconnects from its last version rather than miss one.
    static let bufferLimit = 4_096

    /// A listener fell too far behind; it resumes from the last version it has.
    struct Overrun: KindedError {
        var kind: FailureKind { .temporary }
        var summary: String { "the listener fell more than \(AccountFeed.bufferLimit) events behind; resume from the last event id" }
    }

    private let ledger: AccountService
    private let log: any EventStoreReader
    private let state = Mutex(State())

    init(ledger: AccountService, log: any EventStoreReader) {
        self.ledger = ledger
        self.log = log
    }

    /// A listener of `handle`'s account; with `bound`, of that stream, which the handle must
    /// still name (else the stream ends at once: `ReelError.accountGone`).
    func listen(to handle: AccountHandle, after version: UInt64, bound: StreamID? = nil) -> AsyncThrowingStream<HistoryEntry, any Error> {
        let (stream, continuation) = AsyncThrowingStream<HistoryEntry, any Error>.makeStream(bufferingPolicy: .bufferingOldest(Self.bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        startReading()
        do {
            let account = try? ledger.resolve(handle)
            if let bound, account != bound { throw ReelError.accountGone(handle.value) }
            state.withLock { state in
                let listener = Listener(continuation: continuation, last: version)
                if let account { state.byStream[account, default: [:]][id] = listener } else { state.unopened[handle, default: [:]][id] = listener }
            }
            let history = try account.map { try ledger.log.read(stream: $0, from: version + 1, maxCount: .max) } ?? []
            let entries = try history.map { HistoryEntry($0, decoded: try ledger.projector.decoded($0)) }
            let endings = state.withLock { state -> [Ending] in
                guard let account else {
                    state.unopened[handle]?[id]?.held = nil
                    return []
                }
                guard var listener = state.byStream[account]?[id] else { return [] }
                var endings: [Ending] = []
                for entry in entries + (listener.held ?? []) where entry.streamVersion > listener.last {
                    if let ending = Self.give(entry, to: &listener) { endings.append(ending) }
                }
                listener.held = nil
                state.byStream[account]?[id] = listener
                return endings
            }
            for ending in endings { ending.run() }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// How many listeners are listening now.
    var listeners: Int {
        state.withLock { state in state.byStream.values.reduce(0) { $0 + $1.count } + state.unopened.values.reduce(0) { $0 + $1.count } }
    }

    /// Ends every listener's stream (a shutdown): each may resume elsewhere from its last version.
    func finishAll() {
        let all = state.withLock { state in
            defer {
                state.byStream = [:]
                state.unopened = [:]
            }
            return state.byStream.values.flatMap(\.values) + state.unopened.values.flatMap(\.values)
        }
        for listener in all { listener.continuation.finish() }
    }

    /// A listener's stream to end once the state's lock is let go: ending it runs its termination
    /// handler, which takes the lock (`remove`).
    private struct Ending {
        let continuation: AsyncThrowingStream<HistoryEntry, any Error>.Continuation
        let error: (any Error)?

        func run() {
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        }
    }

    /// Gives `entry` to `listener`; the listener's stream to end, if it must. A listener too far
    /// behind ends (`Overrun`). An account that moved to another shard has nothing more here
    /// (`account-moved-out` ends its stream on this shard): the listener's stream ends after it,
    /// and a listener that resumes is served from the shard the account is on now.
    private static func give(_ entry: HistoryEntry, to listener: inout Listener) -> Ending? {
        var ending: Ending?
        if case .dropped = listener.continuation.yield(entry) {
            ending = Ending(continuation: listener.continuation, error: Overrun())
        } else if case .accountMovedOut? = entry.event {
            ending = Ending(continuation: listener.continuation, error: nil)
        }
        listener.last = entry.streamVersion
        return ending
    }

    private func remove(_ id: UUID) {
        state.withLock { state in
            for stream in Array(state.byStream.keys) where state.byStream[stream]?.removeValue(forKey: id) != nil {
                if state.byStream[stream]?.isEmpty == true { state.byStream[stream] = nil }
            }
            for handle in Array(state.unopened.keys) where state.unopened[handle]?.removeValue(forKey: id) != nil {
                if state.unopened[handle]?.isEmpty == true { state.unopened[handle] = nil }
            }
        }
    }

    /// Starts the one reader of the log, from its head now (listeners read what came before from
    /// their own streams).
    private func startReading() {
        let start = state.withLock { state -> Bool in
            if state.reader != nil { return false }
            state.reader = Task {}
            return true
        }
        guard start else { return }
        let from = ((try? log.head()?.position) ?? 0) + 1
        let task = Task { [weak self, log] in
            do {
                for try await message in log.subscribe(from: from) {
                    guard let self else { return }
                    guard case .event(let event) = message else { continue }
                    let decoded = try? ledger.projector.decoded(event)
                    deliver(HistoryEntry(event, decoded: decoded), of: event.streamID)
                }
            } catch {
                self?.failAll(error)
            }
        }
        state.withLock { $0.reader = task }
    }

    private func deliver(_ entry: HistoryEntry, of stream: StreamID) {
        let endings = state.withLock { state -> [Ending] in
            if case .accountOpened(let handle)? = entry.event, var waiting = state.unopened.removeValue(forKey: handle) {
                for id in waiting.keys { waiting[id]?.held = nil }
                state.byStream[stream, default: [:]].merge(waiting) { old, _ in old }
            }
            guard var listeners = state.byStream[stream] else { return [] }
            var endings: [Ending] = []
            for id in listeners.keys {
                guard var listener = listeners[id], entry.streamVersion > listener.last else { continue }
                if listener.held != nil {
                    listener.held?.append(entry)
                } else if let ending = Self.give(entry, to: &listener) {
                    endings.append(ending)
                }
                listeners[id] = listener
            }
            state.byStream[stream] = listeners
            return endings
        }
        for ending in endings { ending.run() }
    }

    private func failAll(_ error: any Error) {
        let all = state.withLock { state in
            defer {
                state.byStream = [:]
                state.unopened = [:]
                state.reader = nil
            }
            return state.byStream.values.flatMap(\.values) + state.unopened.values.flatMap(\.values)
        }
        for listener in all { listener.continuation.finish(throwing: error) }
    }

    deinit {
        state.withLock { $0.reader?.cancel() }
    }
}

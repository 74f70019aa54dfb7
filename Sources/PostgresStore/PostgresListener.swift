@_spi(Stores) import EventLog
import Foundation
import NIOPosix
import PostgresNIO
import Synchronization

/// Wakes a PostgreSQL store's subscribers when any process commits an append: every write
/// transaction that appends runs `pg_notify('reel_appended', head)`, which the server delivers on
/// commit to every connection listening (`LISTEN reel_appended`). One connection of its own per
/// store listens, from the first subscription on; should it fail, it connects again after a
/// second, and the subscriptions' poll interval covers the gap.
final class PostgresListener: Sendable {
    static let channel = "reel_appended"
    let signal: CommitSignal
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let location: PostgresLocation

    init(location: PostgresLocation, signal: CommitSignal) {
        self.location = location
        self.signal = signal
    }

    /// Starts listening, once.
    func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [location, signal] in
                while !Task.isCancelled {
                    do {
                        let connection = try await PostgresConnector.connect(location, id: 0, on: MultiThreadedEventLoopGroup.singleton.next()).get()
                        defer { Task { try? await connection.close() } }
                        // LISTEN for as long as the closure runs; UNLISTEN when it returns.
                        try await connection.listen(on: Self.channel) { notifications in
                            // Commits made while no one listened are read by the next batch anyway.
                            signal.notify()
                            // The sequence may never end when the server goes away: the
                            // connection's close ends the wait, and the loop connects again.
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                group.addTask { for try await _ in notifications { signal.notify() } }
                                group.addTask { try await connection.closeFuture.get() }
                                _ = try await group.next()
                                group.cancelAll()
                            }
                        }
                    } catch {}
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}

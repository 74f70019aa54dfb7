import Failures
import Foundation
import Synchronization

/// The connections of one PostgreSQL store in this process: a call borrows one for as long as it
/// runs (a read snapshot, a write transaction, one statement) and gives it back. A connection that
/// failed is dropped, not given back. Up to `capacity` are open at once; a caller past that waits
/// for one to come back.
final class PostgresPool: Sendable {
    let location: PostgresLocation
    let capacity: Int
    private struct State {
        var idle: [PostgresLink] = []
        var open = 0
        var nextID = 1
    }
    private let state = Mutex(State())
    private let returned = NSCondition()

    init(_ location: PostgresLocation, capacity: Int = 8) {
        self.location = location
        self.capacity = max(2, capacity)
    }

    /// Runs `body` with a connection of the pool.
    func with<T>(_ body: (PostgresLink) throws -> T) throws -> T {
        let link = try borrow()
        defer { giveBack(link) }
        return try body(link)
    }

    /// Lends a connection (give it back with `giveBack`).
    func borrow() throws -> PostgresLink {
        returned.lock()
        defer { returned.unlock() }
        while true {
            enum Next { case take(PostgresLink), open(Int), wait }
            var dropped: [PostgresLink] = []
            defer { for link in dropped { link.discard() } }
            let next: Next = state.withLock { state in
                // A connection the server closed while it was idle (a restart) is dropped, not lent.
                while let link = state.idle.popLast() {
                    if link.isUsable { return .take(link) }
                    state.open -= 1
                    dropped.append(link)
                }
                guard state.open < capacity else { return .wait }
                state.open += 1
                state.nextID += 1
                return .open(state.nextID)
            }
            switch next {
            case .take(let link): return link
            case .wait: returned.wait()
            case .open(let id):
                returned.unlock()
                defer { returned.lock() }
                do {
                    return try PostgresLink.open(location, id: id)
                } catch {
                    state.withLock { $0.open -= 1 }
                    throw error
                }
            }
        }
    }

    /// Takes back a connection lent; one broken, or still in a transaction, is closed.
    func giveBack(_ link: PostgresLink) {
        returned.lock()
        state.withLock { state in
            if link.broken || link.inTransaction {
                state.open -= 1
            } else {
                state.idle.append(link)
            }
        }
        returned.signal()
        returned.unlock()
        if link.inTransaction {
            link.close()
        } else if link.broken {
            link.discard()
        }
    }

    /// Closes every idle connection (those lent out close when given back broken, or at exit).
    func closeIdle() {
        let idle = state.withLock { state in
            defer { state.open -= state.idle.count; state.idle = [] }
            return state.idle
        }
        for link in idle { link.close() }
    }
}

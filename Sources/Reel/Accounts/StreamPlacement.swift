import EventLog
import Failures
import Foundation

/// Which stream ids a ledger takes for new accounts. One store takes any; a shard of a sharded
/// ledger (`Schemas/postgres-shards.md`) takes only ids the shard map places on it, so a new
/// account's id is drawn again until one lands there (on average as many draws as shards).
public struct StreamPlacement: Sendable {
    private let accepts: @Sendable (String) -> Bool
    private let homes: @Sendable (String) -> Bool

    /// Any stream id.
    public static let anywhere = StreamPlacement { _ in true }

    /// Stream ids for which `accepts` is true, for accounts of handles for which `homes` is true
    /// (a shard is the home of some handles only: another handle's new account belongs elsewhere).
    public init(homes: @escaping @Sendable (String) -> Bool = { _ in true }, accepts: @escaping @Sendable (String) -> Bool) {
        self.accepts = accepts
        self.homes = homes
    }

    /// Refuses to make `handle` a new account here unless this is its home: a command routed
    /// here because its account was here, which moved to its home meanwhile (`reel store
    /// move`), must not open a second account. Temporary: routed again, it finds its home.
    func checkHome(of handle: String) throws {
        guard !homes(handle) else { return }
        throw Failure(.temporary, "the account '\(handle)' moved to another shard meanwhile; try again")
    }

    /// Draws this many ids at most before giving up (with 64 shards, the most a map holds, the
    /// chance of missing that often is below 10⁻⁶⁹).
    static let maximumDraws = 10_000

    /// A new account's stream id (`account-` and a new UUIDv7) this placement takes.
    func newStream() throws -> StreamID {
        for _ in 0..<Self.maximumDraws {
            let id = "account-" + UUID.newEventID().uuidString.lowercased()
            if accepts(id) { return try StreamID(id) }
        }
        throw Failure(.storage, "no new stream id landed on this shard in \(Self.maximumDraws) draws: the shard map's placement is broken")
    }
}

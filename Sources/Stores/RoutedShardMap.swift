import PostgresStore
import Synchronization

/// The shard map a shard's placement of new accounts reads: the one routing follows now.
final class RoutedShardMap: Sendable {
    private let current = Mutex<ShardMap?>(nil)

    var map: ShardMap? { current.withLock { $0 } }

    func route(by map: ShardMap?) { current.withLock { $0 = map } }
}

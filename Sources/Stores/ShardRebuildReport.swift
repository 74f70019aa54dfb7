public import Reel
/// What `reel projections rebuild` did on one shard of a shard map (`Application.rebuildShards`).
public struct ShardRebuildReport: Sendable {
    /// The shard's name in the map.
    public let name: String
    /// The shard's store URL without its password.
    public let store: String
    public let report: RebuildReport
}

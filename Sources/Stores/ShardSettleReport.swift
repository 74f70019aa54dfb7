public import Reel
/// What `reel store move --all` did: the accounts it moved, and the shards it recorded settled.
public struct ShardSettleReport: Sendable, Equatable {
    public let moves: [AccountMoveReport]
    /// The shards whose record now says their accounts are settled (none when they were already).
    public let settled: [String]

    public init(moves: [AccountMoveReport], settled: [String]) {
        self.moves = moves
        self.settled = settled
    }
}

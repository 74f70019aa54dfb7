/// The event types that close an account's stream on the chain's authority (`closed-streams` on
/// LMDB, `reel_streams.closed_at` on PostgreSQL), after which its key may be destroyed:
/// `account-deleted` (the store's closing type), whose stream must be closed; and
/// `account-moved-out`, the last event on a shard an account moved away from, whose stream is
/// closed once the move has laid the account on the other shard (`reel store move`): open in
/// between, so that its key lives until the other shard holds it too.
public enum StreamClosing {
    public static let movedOutType = "account-moved-out"
    static let movedOutTypeBytes = Array(movedOutType.utf8)

    /// Whether an event of `type` may close its stream, for a store whose deletion is `closingType`.
    public static func mayClose(_ type: String, closingType: String) -> Bool {
        type == closingType || type == movedOutType
    }

    package static func isMovedOut(_ type: UnsafeRawBufferPointer) -> Bool {
        movedOutTypeBytes.withUnsafeBytes { type.sameBytes(as: $0) }
    }
}

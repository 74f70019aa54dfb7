/// The steps of one account's move, as they are passed.
public enum AccountMoveStep: String, Sendable {
    case closedOnSource = "closed on the source"
    case laidOnTarget = "laid on the target"
    case verified = "verified on both shards"
    case keyDestroyed = "its key destroyed on the source"
}

public import EventLog
public import Foundation

/// What a checked inclusion proof proves: the event at `position` (its id, stream and type, as
/// its envelope says them) is in the log named by the checkpoint, of `checkpoint.size` events.
public struct ProofCheck: Sendable {
    public let checkpoint: Checkpoint
    public let position: UInt64
    public let eventID: UUID
    public let stream: StreamID
    public let type: String
}

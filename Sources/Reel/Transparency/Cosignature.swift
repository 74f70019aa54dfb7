/// A witness's cosignature of a checkpoint of this ledger's log (C2SP tlog-cosignature), as kept:
/// the witness's name, the checkpoint's size, and when the witness signed it.
public struct Cosignature: Sendable, Equatable {
    public let witness: String
    public let origin: String
    public let size: UInt64
    /// Seconds since the Epoch, as the witness stamped it.
    public let time: UInt64
    /// Whether it is of the latest checkpoint (the ledger has not grown since).
    public let current: Bool
    /// The cosignature line (`— name base64`).
    let line: String
}

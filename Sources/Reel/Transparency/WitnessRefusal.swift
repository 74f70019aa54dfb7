import Failures

/// Why a witness did not cosign a checkpoint (C2SP tlog-witness, `add-checkpoint`); each reason
/// is one of the protocol's answers.
public struct WitnessRefusal: KindedError, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The request is not one (400).
        case malformed
        /// The checkpoint's origin is none of the witnessed logs (404).
        case unknownLog
        /// No signature by a key the witness trusts for the log verifies (403).
        case unverified
        /// The old size is not the size the witness last cosigned, which it gives (409).
        case conflict(latestSize: UInt64)
        /// The checkpoint is not consistent with what the witness cosigned before (422).
        case inconsistent
    }

    public let reason: Reason
    public let summary: String

    public init(_ reason: Reason, _ summary: String) {
        self.reason = reason
        self.summary = summary
    }

    public var kind: FailureKind {
        switch reason {
        case .malformed: .usage
        case .unknownLog: .notFound
        case .unverified, .inconsistent: .tampered
        case .conflict: .temporary
        }
    }

    public var description: String { summary }
}

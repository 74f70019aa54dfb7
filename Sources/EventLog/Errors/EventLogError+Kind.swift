public import Failures
import LMDB

extension EventLogError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .wrongExpectedVersion, .duplicateEventID: .temporary
        case .invalidStreamID, .invalidEventType, .payloadTooLarge: .usage
        case .streamShredded: .notFound
        case .unsupportedFormat, .corruptEnvelope, .corruptBlob, .brokenChain, .missingKeyStore, .foreignKeyStore, .missingKey,
            .missingLedger, .unauthorizedShredding:
            .tampered
        case .storage(let error): error.kind
        }
    }

    public var summary: String {
        if case .storage(let error) = self { return error.summary }
        return description
    }
}

extension EnvelopeDecodingError: KindedError {
    /// Stored bytes that are not an envelope: the ledger (or an export) was altered or damaged.
    public var kind: FailureKind { .tampered }
    public var summary: String { "bytes that are not an envelope: \(reason)" }
}

extension GCMFailure: KindedError {
    /// The cipher itself failed (out of memory, say): nothing about the data is wrong.
    package var kind: FailureKind { .storage }
}

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

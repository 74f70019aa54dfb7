public import Failures

extension ReelError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .noAccount, .accountDeleted, .accountGone, .noLedger, .asOfOutOfRange: .notFound
        case .undecodableEvent, .corruptProjection, .missingPhoto, .rebuildRefused: .tampered
        case .handleTaken: .usage
        }
    }
}

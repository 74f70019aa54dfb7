public import Failures

extension DomainError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .accountDeleted: .notFound
        case .accountMoved: .unavailable
        case .undecodableEvent: .tampered
        default: .usage
        }
    }
}

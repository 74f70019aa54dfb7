public import Failures

extension CatalogError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .invalidCredentials: .refusedCredentials
        case .missingCredentials, .unavailable, .notCached: .unavailable
        case .rateLimited: .temporary
        case .rejected: .usage
        case .malformedResponse: .data
        }
    }
}

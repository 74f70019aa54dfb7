public import Failures

extension CredentialStore.StoreError: KindedError {
    public var kind: FailureKind {
        switch self {
        case .unwritable: .unavailable
        case .unreadable, .empty, .malformed: .usage
        }
    }

    public var summary: String {
        switch self {
        case .unreadable(let path, let reason): "the credentials file \(path) \(reason)"
        case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
        case .empty: "no credential given"
        case .malformed(let source, let service): CredentialStore.malformedCredential("in \(source)", service: service)
        }
    }
}

extension CredentialStore {
    /// Why a credential (`place`: "in TMDB_API_TOKEN", "on standard input") is refused, without a
    /// word of the credential itself.
    public static func malformedCredential(_ place: String, service: String = "TMDb") -> String {
        "the \(service) \(service == "TMDb" ? "credential" : "key") \(place) holds a space, a line break or another character no credential has "
            + "(it is one line of printable ASCII); nothing was sent to \(service)"
    }
}

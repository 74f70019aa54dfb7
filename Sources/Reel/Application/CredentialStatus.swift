import Catalog
public import Failures

/// Which TMDb credential is configured, where from, and whether TMDb accepts it.
public struct CredentialStatus: Sendable {
    /// The credential and where it was found; `nil`: none (the sample catalog answers).
    public let found: CredentialStore.Found?
    /// Reel's own credentials file (`reel tmdb login` writes it).
    public let configFile: String
    public let baseURL: String
    /// Whether TMDb was asked (not offline, a credential configured).
    public let checked: Bool
    /// TMDb's answer: `nil` when not checked or TMDb could not be reached.
    public let accepted: Bool?
    /// Why TMDb refused it or could not be asked.
    public let problem: String?
    /// What kind of failure `problem` is, when TMDb could not say yes (refused credentials, no
    /// network, an answer that made no sense); `nil` when it accepted them or was not asked.
    public let failure: FailureKind?
}

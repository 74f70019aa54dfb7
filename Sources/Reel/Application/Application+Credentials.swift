import Catalog
import Foundation

extension Application {
    /// Which credential is configured and, unless offline, whether TMDb accepts it.
    public func credentialStatus() async throws -> CredentialStatus {
        let store = CredentialStore(environment: configuration.environment)
        let found = try catalogs.credentials()
        var accepted: Bool?
        var problem: String?
        var failure: FailureKind?
        if let found, !configuration.offline {
            let limits = CatalogLimits.from(environment: configuration.environment)
            if let error = await check(found.credentials, limits: limits) {
                if case .invalidCredentials = error { accepted = false }
                problem = error.description
                failure = error.kind
                if Self.lacksAuthentication(error) {
                    // A server (a proxy, a mirror) without TMDb's /authentication: a small catalog
                    // request says as much about the credential.
                    if let second = await check(found.credentials, limits: limits, byCatalogRequest: true) {
                        if case .invalidCredentials = second { accepted = false }
                        failure = second.kind
                        problem = "could not verify the credential: \(configuration.catalogBaseURL) has no /authentication, and a catalog request failed: \(second)"
                    } else {
                        accepted = true
                        failure = nil
                        problem = "\(configuration.catalogBaseURL) has no /authentication; a catalog request with the credential works"
                    }
                }
            } else {
                accepted = true
            }
        }
        return CredentialStatus(
            found: found, configFile: store.path, baseURL: configuration.catalogBaseURL, checked: found != nil && !configuration.offline,
            accepted: accepted, problem: problem, failure: failure)
    }

    /// Saves `credentials` in Reel's credentials file (mode 0600), after asking TMDb whether it
    /// accepts them unless `check` is false or offline: a refused credential is not saved; one
    /// that cannot be checked now is saved with a note. Returns the file and whether TMDb said yes.
    public func login(_ credentials: Credentials, check: Bool) async throws -> (path: String, checked: Bool) {
        var checked = false
        if check && !configuration.offline {
            if let error = await self.check(credentials, limits: CatalogLimits()) {
                if case .invalidCredentials = error { throw error }
                configuration.notice(Notice("could not check the credential now (\(error)); saving it anyway"))
            } else {
                checked = true
            }
        }
        let store = CredentialStore(environment: configuration.environment)
        try store.save(credentials)
        return (store.path, checked)
    }

    /// Removes Reel's credentials file (environment variables are not touched): whether there
    /// was one, and where.
    public func logout() throws -> (removed: Bool, path: String) {
        let store = CredentialStore(environment: configuration.environment)
        return (try store.remove(), store.path)
    }

    /// Whether `error` says the server has no `/authentication` (it answered, but not there).
    static func lacksAuthentication(_ error: CatalogError) -> Bool {
        switch error {
        case .notFound: true
        case .rejected(_, let status, _): [404, 405, 501].contains(status)
        default: false
        }
    }

    /// Asks TMDb whether it accepts `credentials` (`/authentication`, or with `byCatalogRequest`
    /// the movie genres); `nil` when it does.
    private func check(_ credentials: Credentials, limits: CatalogLimits, byCatalogRequest: Bool = false) async -> CatalogError? {
        let client = CatalogClient.tmdb(baseURL: configuration.catalogBaseURL, credentials: credentials, cache: nil, limits: limits)
        var failure: CatalogError?
        do {
            if byCatalogRequest {
                _ = try await client.genres(.movie, language: "en-US")
            } else {
                try await client.validateCredentials()
            }
        } catch let error as CatalogError {
            failure = error
        } catch {
            failure = .unavailable(endpoint: "/authentication", reason: "\(error)")
        }
        await client.shutdown()
        return failure
    }
}

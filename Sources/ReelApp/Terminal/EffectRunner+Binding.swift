import Reel

/// Changes from the app reach the account it is bound to (`CurrentAccount.bound`).
extension EffectRunner {
    /// Runs `change` for the account the app is bound to, and binds the app to an account the
    /// change opened.
    func changing(_ change: (BoundAccount) async throws -> ChangeReport) async throws -> ChangeReport {
        let bound = try account.bound(application)
        let report = try await change(bound)
        account.changed(bound, stream: report.command.stream)
        return report
    }

    /// The same for a change the core makes at once (settings).
    func changingNow(_ change: (BoundAccount) throws -> ChangeReport) throws -> ChangeReport {
        let bound = try account.bound(application)
        let report = try change(bound)
        account.changed(bound, stream: report.command.stream)
        return report
    }
}

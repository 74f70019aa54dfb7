import Ledger
import Reel

/// What browsing commands need from the ledger: the account's language (for every catalog
/// request) and which titles it has saved (for the mark in lists). Browsing needs no account:
/// without a ledger or an account it is English and nothing saved, and nothing is created.
struct AccountContext {
    let language: String
    let savedAt: [MediaKey: Int64]

    static func load(_ global: GlobalOptions) throws -> AccountContext {
        let handle = try global.handle()
        guard AccountService.ledgerExists(at: global.resolvedDataDirectory) else { return .none }
        let service = try LedgerLocation.existingService(global)
        do {
            let view = try service.view(of: handle)
            return AccountContext(
                language: view.state.settings.language.description,
                savedAt: Dictionary(view.state.saved.items.map { ($0.key, $0.addedAt) }, uniquingKeysWith: { a, _ in a })
            )
        } catch ReelError.noAccount, ReelError.accountDeleted {
            return .none
        }
    }

    static let none = AccountContext(language: LanguageTag.default.description, savedAt: [:])
}

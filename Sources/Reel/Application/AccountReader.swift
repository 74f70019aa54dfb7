import Ledger

/// What browsing needs from an account: the language every catalog request is made in, and
/// which titles it saved (for the mark in lists).
public struct AccountReader: Sendable {
    public let language: String
    public let savedAt: [MediaKey: Int64]

    init(language: String, savedAt: [MediaKey: Int64]) {
        self.language = language
        self.savedAt = savedAt
    }

    init(_ view: AccountView) {
        self.init(
            language: view.state.settings.language.description,
            savedAt: Dictionary(view.state.saved.items.map { ($0.key, $0.addedAt) }, uniquingKeysWith: { a, _ in a }))
    }

    /// No ledger or no account: English, nothing saved.
    public static let none = AccountReader(language: LanguageTag.default.description, savedAt: [:])
}

/// What the status line says: whose ledger, in which language, from which catalog, and the last
/// thing that went wrong.
public struct StatusLine: Sendable, Equatable {
    public var account: String
    public var language: String?
    public var catalog: CatalogKind = .unknown
    /// The last error, until the next one (or a reload that works).
    public var lastError: String?
    /// The last note from the application core (a damaged cache set aside, say).
    public var note: String?

    public init(account: String, language: String? = nil, catalog: CatalogKind = .unknown) {
        self.account = account
        self.language = language
        self.catalog = catalog
    }
}

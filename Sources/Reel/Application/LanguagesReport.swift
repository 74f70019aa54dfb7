import Ledger

/// The languages an account may read the catalog in (`settings language` takes them, with or
/// without a region), and what it reads in now.
public struct LanguagesReport: Sendable {
    public struct Language: Sendable, Equatable {
        /// The ISO 639-1 code, as in `de`.
        public let code: String
        /// Its English name.
        public let name: String
        /// Whether the bundled sample catalog has text in it (English and German); with TMDb
        /// credentials every language has.
        public let inSampleCatalog: Bool
    }

    /// Every language, by code.
    public let languages: [Language]
    /// The ISO 3166-1 regions a tag may add (`pt-BR`), sorted.
    public let regions: [String]
    /// The account's language now (`en-US` without an account).
    public let current: LanguageTag
    /// Whether the catalog is the bundled sample (no credentials).
    public let sampleCatalog: Bool
}

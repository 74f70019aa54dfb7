extension LanguageTag {
    /// The ISO 639-1 codes a tag may start with (TMDb's languages, as Reel ships them), sorted.
    public static var languageCodes: [String] { LanguageCatalog.languages.keys.filter { $0 != "xx" }.sorted() }

    /// The ISO 3166-1 region codes a tag may end with (`pt-BR`), sorted.
    public static var regionCodes: [String] { LanguageCatalog.regions.sorted() }
}

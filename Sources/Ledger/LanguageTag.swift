/// A TMDb language tag: an ISO 639-1 code, optionally `-` and an ISO 3166-1 region (`de`, `de-DE`,
/// `pt-BR`), checked against the list Reel ships (`LanguageCatalog`).
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public static let `default` = LanguageTag(unchecked: "en-US")

    public init(_ text: String) throws(DomainError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { throw .invalidLanguage(text, "expected a tag like en, de-DE or pt-BR") }
        let language = String(parts[0])
        guard language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            throw .invalidLanguage(text, "the language is two lowercase letters (ISO 639-1), as in de-DE")
        }
        guard language != "xx", LanguageCatalog.languages[language] != nil else {
            throw .invalidLanguage(text, "'\(language)' is not a TMDb language")
        }
        if parts.count == 2 {
            let region = String(parts[1])
            guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw .invalidLanguage(text, "the region is two uppercase letters (ISO 3166-1), as in de-DE")
            }
            guard LanguageCatalog.regions.contains(region) else {
                throw .invalidLanguage(text, "'\(region)' is not an ISO 3166-1 region")
            }
        }
        value = text
    }

    init(unchecked value: String) { self.value = value }

    /// A tag read back from storage, trusted as it was written.
    public init(stored value: String) { self.value = value }

    /// The language's English name, e.g. "German" for `de-DE`.
    public var languageName: String {
        LanguageCatalog.languages[String(value.prefix(2))] ?? value
    }

    public var description: String { value }
}

import Failures

extension LanguageTag {
    /// A tag as a person types it: `en_US`, `en-us`, `EN`, a locale such as `en_US.UTF-8` (from
    /// `LANG`) or an English language name (`German`, `portuguese`) are read as the tag they
    /// mean (`en-US`, `en`, `de`, `pt`). What still names no tag is refused with the nearest one
    /// suggested where there is one (`en-UK`: did you mean en-GB?).
    public init(typed text: String) throws(DomainError) {
        let trimmed = text.trimmingWhitespace
        var tag = String(trimmed.prefix { $0 != "." && $0 != "@" })  // en_US.UTF-8, sr_RS@latin
        tag = tag.replacingUnderscores
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1, parts[0].count > 2, let code = Self.code(named: parts[0]) {
            tag = code
        } else if parts.count == 2 {
            tag = parts[0].lowercased() + "-" + parts[1].uppercased()
        } else if parts.count == 1 {
            tag = parts[0].lowercased()
        }
        do {
            try self.init(tag)
        } catch {
            guard case .invalidLanguage(_, let why) = error else { throw error }
            let suggestion = Self.suggestion(for: tag).map { "; did you mean \($0)? ('reel languages' lists them)" } ?? " ('reel languages' lists them)"
            throw .invalidLanguage(trimmed, why + suggestion)
        }
    }

    /// The code of the language whose English name is `name` (any case), or the one language whose
    /// name starts with it.
    static func code(named name: String) -> String? {
        let wanted = name.lowercased()
        let known = LanguageCatalog.languages.filter { $0.key != "xx" }
        if let exact = known.first(where: { $0.value.lowercased() == wanted }) { return exact.key }
        let starting = known.filter { $0.value.lowercased().hasPrefix(wanted) }
        return starting.count == 1 ? starting.first?.key : nil
    }

    /// The tag meant, for a few mistakes people make: a region that is not the ISO one (`UK` for
    /// `GB`), a language code that is a country code (`jp` for `ja`), an unknown region (the
    /// language alone).
    static func suggestion(for tag: String) -> String? {
        let parts = tag.split(separator: "-").map(String.init)
        guard let first = parts.first else { return nil }
        if parts.count == 1, first.count > 3 {
            // A language's name misspelt (`portugese`, `germna`): the tag of the nearest name.
            let known = LanguageCatalog.languages.filter { $0.key != "xx" }
            let near = NameSuggestion.nearest(to: first, among: Array(known.values))
            if near.count == 1, let code = known.first(where: { $0.value == near[0] })?.key { return "\(code) (\(near[0]))" }
        }
        let language = Self.commonMistakes[first] ?? first
        guard LanguageCatalog.languages[language] != nil, language != "xx" else { return nil }
        guard parts.count == 2 else { return language == first ? nil : language }
        let region = Self.commonMistakes[parts[1].lowercased()]?.uppercased() ?? parts[1]
        if LanguageCatalog.regions.contains(region) { return "\(language)-\(region)" }
        return language
    }

    /// Codes people type for another: country codes for languages, and `UK` for `GB`.
    static let commonMistakes: [String: String] = [
        "jp": "ja", "kr": "ko", "cn": "zh", "gr": "el", "dk": "da", "se": "sv", "cz": "cs", "ua": "uk", "il": "he", "iw": "he",
        "br": "pt", "at": "de", "ch": "de", "us": "en", "gb": "en", "ir": "fa", "vn": "vi", "in": "hi", "uk": "gb",
    ]
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}

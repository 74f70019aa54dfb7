/// Which of the sample catalog's translations answers a `language` parameter: the exact tag
/// (`de-DE`), else any translation of the same language (`de` → `de-DE`), else English — as TMDb
/// falls back to the English text where a translation is missing or empty.
struct SampleLanguage: Sendable, Equatable {
    /// The requested tag, `en-US` when none was given.
    let tag: String

    init(_ parameter: String?) {
        let trimmed = parameter ?? ""
        tag = trimmed.isEmpty ? "en-US" : trimmed
    }

    var language: String { String(tag.split(separator: "-").first ?? "en").lowercased() }

    var isEnglish: Bool { language == "en" }

    var isGerman: Bool { language == "de" }

    /// The translation to use from `translations` (keyed by tag), or nil for English.
    func pick<T>(_ translations: [String: T]) -> T? {
        if isEnglish { return nil }
        if let exact = translations[tag] { return exact }
        // Same language, another region: the first such tag in sorted order, so the pick is stable.
        let sameLanguage = translations.keys.sorted().first { $0.split(separator: "-").first.map(String.init)?.lowercased() == language }
        return sameLanguage.flatMap { translations[$0] }
    }

    /// A translated text, or the English one when the translation has none (or an empty one).
    static func text(_ translated: String?, else english: String) -> String {
        if let translated, !translated.isEmpty { return translated }
        return english
    }
}

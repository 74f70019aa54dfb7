import ArgumentParser
import Reel

/// Shell completions that are worked out when the shell asks (`reel ---completion …`): known
/// without the ledger, the cache or the network, so pressing Tab is instant and changes nothing.
enum Completions {
    /// `movies|series --genre`: TMDb's English genre names, which `--genre` takes whatever the
    /// account's language (ids too, but nobody types those from a list).
    static let genres = CompletionKind.custom { words, index, prefix in
        let typed = words.prefix(index)
        let type: MediaType = typed.contains("series") ? .tv : .movie
        return Application.englishGenreNames(type).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// `saved --genre`: the genre names of movies and of series (a saved list holds both).
    static let savedGenres = CompletionKind.custom { _, _, prefix in
        Array(Set(Application.englishGenreNames(.movie) + Application.englishGenreNames(.tv)))
            .filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.sorted()
    }

    /// `settings language`: the language codes, and once one is typed, its tags with a region
    /// (`pt` → `pt`, `pt-AO` … `pt-BR` … `pt-PT` …).
    static let languageTags = CompletionKind.custom { _, _, prefix in
        languageTags(startingWith: prefix)
    }

    static func languageTags(startingWith prefix: String) -> [String] {
        let codes = LanguageTag.languageCodes
        let language = String(prefix.prefix(2)).lowercased()
        var tags = codes
        if codes.contains(language) { tags += LanguageTag.regionCodes.map { "\(language)-\($0)" } }
        return tags.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }
}

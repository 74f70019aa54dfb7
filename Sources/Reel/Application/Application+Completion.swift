import Catalog
import Ledger

extension Application {
    /// Genre names `--genre` takes for `mediaType` whatever the account's language: TMDb's English
    /// names, known without a catalog request (shell completion offers them).
    public static func englishGenreNames(_ mediaType: MediaType) -> [String] {
        SampleGenres.englishNames(mediaType)
    }
}

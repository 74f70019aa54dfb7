public import Ledger

/// TMDb's genre lists in English (reference sample `genre-*-list.json`) and German (the official
/// OpenAPI examples), the two languages the sample catalog speaks.
public enum SampleGenres {
    static let movie: [(id: Int, en: String, de: String)] = [
        (28, "Action", "Action"), (12, "Adventure", "Abenteuer"), (16, "Animation", "Animation"),
        (35, "Comedy", "Komödie"), (80, "Crime", "Krimi"), (99, "Documentary", "Dokumentarfilm"),
        (18, "Drama", "Drama"), (10751, "Family", "Familie"), (14, "Fantasy", "Fantasy"),
        (36, "History", "Historie"), (27, "Horror", "Horror"), (10402, "Music", "Musik"),
        (9648, "Mystery", "Mystery"), (10749, "Romance", "Liebesfilm"), (878, "Science Fiction", "Science Fiction"),
        (10770, "TV Movie", "TV-Film"), (53, "Thriller", "Thriller"), (10752, "War", "Kriegsfilm"),
        (37, "Western", "Western"),
    ]

    static let tv: [(id: Int, en: String, de: String)] = [
        (10759, "Action & Adventure", "Action & Adventure"), (16, "Animation", "Animation"),
        (35, "Comedy", "Komödie"), (80, "Crime", "Krimi"), (99, "Documentary", "Dokumentarfilm"),
        (18, "Drama", "Drama"), (10751, "Family", "Familie"), (10762, "Kids", "Kids"),
        (9648, "Mystery", "Mystery"), (10763, "News", "News"), (10764, "Reality", "Reality"),
        (10765, "Sci-Fi & Fantasy", "Sci-Fi & Fantasy"), (10766, "Soap", "Soap"), (10767, "Talk", "Talk"),
        (10768, "War & Politics", "War & Politics"), (37, "Western", "Western"),
    ]

    /// TMDb's English names of `mediaType`'s genres, which `--genre` takes whatever the account's
    /// language (shell completion offers them without asking TMDb).
    public static func englishNames(_ mediaType: MediaType) -> [String] {
        (mediaType == .movie ? movie : tv).map(\.en)
    }
}

/// What a first run is told: a data directory or an account with nothing in it yet reads as empty
/// (exit 0), with one line saying how to begin.
enum FirstRun {
    static let hint = "save a title with 'reel fav add \"title\"' (see 'reel movies' to browse)"
}

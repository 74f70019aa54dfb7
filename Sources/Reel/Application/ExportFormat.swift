/// What `export` writes: Reel's own verifiable document, or the saved movies as Letterboxd's
/// import CSV.
public enum ExportFormat: String, Sendable, CaseIterable {
    case reel, letterboxd
}

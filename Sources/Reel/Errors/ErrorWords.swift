import Failures
import Catalog

/// A failure in two forms: as a person reads it on a screen (`short`: what failed, without the
/// endpoint, query or other detail), and whole (`full`: what the commands print, for a log).
public enum ErrorWords {
    /// `Couldn't reach TMDb: it answered 503 (unavailable)`.
    public static func short(_ error: any Error) -> String {
        if let catalog = error as? CatalogError { return catalog.inWords }
        return full(error)
    }

    /// `TMDb is unavailable for /discover/movie?…: HTTP 503; try again later or use --offline`.
    public static func full(_ error: any Error) -> String {
        (error as? any KindedError)?.summary ?? "\(error)"
    }
}

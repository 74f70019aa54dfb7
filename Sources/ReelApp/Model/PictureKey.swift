public import Reel

/// A picture the app draws and the box of cells it is drawn in: a TMDb image at a path (a poster,
/// a person's photo), or the account's own photo (read from the ledger, never cached). The box is
/// part of the key: the same poster on the details screen and as a list thumbnail is fetched and
/// rendered once for each size.
public struct PictureKey: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// An image on TMDb's image host, as a title's `poster_path` or a person's `profile_path` gives it.
        case tmdb(path: String, kind: ImageConfiguration.Kind)
        /// The photo of `account`, by the SHA-256 its reference names: a new photo is a new key.
        case accountPhoto(account: String, sha256: String)
    }

    public var source: Source
    /// The box: the picture is drawn as large as fits in it, its aspect ratio kept.
    public var columns: Int
    public var rows: Int

    public init(_ source: Source, columns: Int, rows: Int) {
        self.source = source
        self.columns = columns
        self.rows = rows
    }

    /// A title's poster (`path` as TMDb gives it) in a box.
    public static func poster(_ path: String, columns: Int, rows: Int) -> PictureKey {
        PictureKey(.tmdb(path: path, kind: .poster), columns: columns, rows: rows)
    }
}

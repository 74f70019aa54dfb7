import Files
import Ledger

/// The most Reel reads of each kind of input (handbook, "Commands"). A reader takes at most the
/// limit and one byte more, so a device (`/dev/zero`), a FIFO or a `/proc` file that reports no
/// size cannot make it grow: one byte past the limit is enough to refuse the rest unread.
public enum InputLimit {
    /// A profile photo: 5 MB, the photo's own limit (`PhotoFormat.maximumBytes`).
    public static let photo = PhotoFormat.maximumBytes
    /// A Reel export (`account import`, `account verify-export`): 512 MiB, some 600,000 events of
    /// history (an export takes about 800 bytes an event). Reading it takes about as much memory.
    public static let export = 512 << 20
    /// Another app's list (a Letterboxd or IMDb CSV, a Trakt JSON): 64 MiB, far more rows than
    /// any such list holds.
    public static let list = 64 << 20
    /// A TMDb credential on standard input (`tmdb login`): 4 KiB (TMDb's tokens are about 220
    /// characters, its keys 32).
    public static let credential = 4_096

    /// "5,000,000 bytes (5 MB)", "536,870,912 bytes (512 MiB)".
    public static func words(_ limit: Int) -> String { ByteCount.words(limit) }
}

extension InputFileError {
    /// The failure a person reads when the file (`what` it was meant to be: "a photo", "an
    /// import") was not read: over its limit, what was refused and that nothing past the limit
    /// was read; else the error's own words and kind.
    public func failure(what: String) -> Failure {
        if case .tooLarge(let path, let limit) = self {
            return Failure(.usage, "\(path) is larger than the limit of \(InputLimit.words(limit)) for \(what); nothing was read past it")
        }
        return Failure(kind, description)
    }
}

import Failures
import Files
import Ledger
import Pictures

extension Application {
    /// Reads the photo file a person named: at most the photo limit (5 MB) and one byte, whatever
    /// the file is, so `/dev/zero` or an endless FIFO is refused after 5 MB; one line naming the
    /// file when it cannot be read, is a directory or is too large.
    public static func readPhoto(at path: String) throws -> [UInt8] {
        do {
            return try BoundedFile.read(path, limit: InputLimit.photo)
        } catch .isDirectory {
            throw Failure(.usage, "\(path): is a directory, not a photo")
        } catch .tooLarge {
            throw Failure(
                .usage,
                "\(path): invalid photo: the file has more bytes than the limit; the limit is \(GroupedDigits.of(InputLimit.photo)) (5 MB), and nothing past it was read")
        } catch {
            throw error.failure(what: "a photo")
        }
    }

    /// Sets the account's photo to `bytes` (from `source`, named in a refusal): a JPEG or PNG of
    /// at most 5 MB whose header is whole; anything else is a usage failure naming the source.
    public func changePhoto(to bytes: [UInt8], from source: String, for handle: AccountHandle) throws -> ChangeReport {
        try changePhoto(to: bytes, from: source, for: try bind(handle))
    }

    /// The same for `account` as its caller was bound to it (`BoundAccount`).
    public func changePhoto(to bytes: [UInt8], from source: String, for account: BoundAccount) throws -> ChangeReport {
        let reference: PhotoReference
        do {
            reference = try AccountService.photoReference(for: bytes)
        } catch let error as DomainError {
            throw Failure(.usage, "\(source): \(error.description)")
        }
        // A photo that could never be drawn (a header claiming a huge picture) is refused now.
        let limit = PictureDecoder.defaultPixelLimit
        if let (_, width, height) = try? PictureDecoder().dimensions(of: bytes), width.multipliedReportingOverflow(by: height).partialValue > limit {
            throw Failure(.usage, "\(source): invalid photo: \(width)×\(height) pixels is more than the limit of \(GroupedDigits.of(limit)) pixels")
        }
        return try change(.changePhoto(reference), for: account, photo: bytes)
    }

    /// The bytes of the photo `view` shows (the account's photo then), nil when it shows none.
    /// They come from the ledger, sealed under the account's key: never from or into a cache.
    public func photoBytes(in view: AccountView) throws -> [UInt8]? {
        guard let reference = view.state.settings.photo, let stream = view.stream, let ledger = try existingLedger(for: view.handle) else { return nil }
        return try ledger.photoBytes(reference, of: stream)
    }
}

import Reel

/// Reads a file a person named (an import, an export to verify, a photo) with `BoundedFile`: at
/// most its limit (`InputLimit`), with one clear line when it cannot be read or is too large.
enum InputFile {
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        do {
            return try BoundedFile.read(path, limit: limit)
        } catch {
            throw failure(error, what: what)
        }
    }

    static func failure(_ error: InputFileError, what: String) -> ReelFailure {
        switch error {
        case .notFound: ReelFailure(message: error.description, status: .notFound)
        case .isDirectory: ReelFailure(message: error.description, status: .usage)
        case .tooLarge(let path, let limit):
            ReelFailure(message: "\(path) is larger than the limit of \(InputLimit.words(limit)) for \(what); nothing was read past it", status: .usage)
        case .unreadable: ReelFailure(message: error.description, status: .unavailable)
        }
    }
}

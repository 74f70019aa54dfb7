import Foundation
import Reel

/// Reads a file a person named (an import, an export to verify, a photo) with `BoundedFile`: at
/// most its limit (`InputLimit`), with one clear line when it cannot be read or is too large.
enum InputFile {
    /// `-` is standard input.
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        do {
            return path == "-" ? try BoundedFile.read(descriptor: STDIN_FILENO, limit: limit, name: "standard input") : try BoundedFile.read(path, limit: limit)
        } catch {
            throw failure(error, what: what)
        }
    }

    static func failure(_ error: InputFileError, what: String) -> Failure { error.failure(what: what) }
}

import Foundation
import Reel

/// Writes an output file (`--out`) through `OutputFile`: whole or not at all, mode 0600, only a
/// new file or a replaced regular one. A failure's kind (`OutputFileError`) gives its exit status:
/// 64 for a path Reel will not write (a directory, a device, a FIFO, a socket, a symbolic link),
/// 69 for a permission, 74 when the bytes could not be written (a full disk, an I/O error).
enum AtomicFile {
    /// `REEL_OUTPUT_TMPFILE=off` writes as on a file system without `O_TMPFILE` (a named
    /// temporary file from the start), for tests of that path.
    static var unnamedTemporary: Bool { ProcessInfo.processInfo.environment["REEL_OUTPUT_TMPFILE"] != "off" }

    /// `stream`'s export to `path`; its temporary name, while it has one, is recorded under the
    /// data directory so `account delete` can find it.
    static func write(_ bytes: [UInt8], to path: String, dataDirectory: String? = nil, stream: String? = nil) throws {
        try OutputFile.write(
            bytes, to: path, unnamedTemporary: unnamedTemporary, pending: dataDirectory.map(PendingExports.init(dataDirectory:)),
            stream: stream
        ) { Failpoint.reach("output:\($0.rawValue)") }
    }

    /// Refuses an output path Reel would not write, before any work is done for it.
    static func check(_ path: String) throws {
        _ = try OutputFile.check(path)
    }
}

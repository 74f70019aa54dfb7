#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an export's temporary file is while it has a name, so that a killed export's plaintext
/// can be found again from the data directory: by the next export (any account), and by
/// `account delete` (that account's, before anything else).
///
/// `DATA_DIR/pending-exports/` (mode 0700) holds one record per temporary file that has a name:
/// `STREAM.reel-PID-XXXXXXXX`, whose content is the temporary file's absolute path. A record is made
/// before the name appears and removed once the name is gone (renamed over the target, or
/// unlinked). An export written through an unnamed file (`O_TMPFILE`) to a new path never has
/// one. When the data directory cannot be written (a read-only backup), nothing is recorded and
/// only the next export to the same place finds the leftover (`TemporaryName.sweep`).
public struct PendingExports: Sendable {
    public let directory: String

    public init(dataDirectory: String) {
        directory = dataDirectory + "/pending-exports"
    }

    /// A record of `temporary` (an absolute path) holding `stream`'s export; `nil` when it cannot
    /// be made.
    func register(_ temporary: String, stream: String) -> String? {
        // Reel's stream ids are `account-<uuid>`; anything else is not made into a file name.
        guard !stream.isEmpty, stream.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
            return nil
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { return nil }
        let record = directory + "/" + String(TemporaryName.make(for: stream).dropFirst().dropLast(4))
        let fd = open(record, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let text = Array((temporary + "\n").utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        guard written == text.count else {
            unlink(record)
            return nil
        }
        return record
    }

    func unregister(_ record: String?) {
        if let record { unlink(record) }
    }

    /// Removes the temporary files of exports that were killed (of `stream` only, or of every
    /// account) and their records; a live export's are left alone. Returns how many files held
    /// plaintext and were removed.
    @discardableResult
    public func sweep(stream: String? = nil) -> Int {
        guard let dir = opendir(directory) else { return 0 }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(dir)
        var removed = 0
        for name in names {
            // STREAM.reel-PID-XXXXXXXX (see `register`): the stream, then the writer.
            guard let owner = Self.prefix(of: name) else { continue }
            if let stream, owner != stream { continue }
            guard let pid = TemporaryName.writer(of: "." + name + ".tmp", for: owner) else { continue }
            let record = directory + "/" + name
            // The file goes when its writer is gone (`TemporaryName.isAbandoned`), the record with
            // it, or once its writer's process is gone whatever became of the file.
            if let temporary = Self.path(in: record), let entry = temporary.split(separator: "/").last,
                let filePID = TemporaryName.writer(of: String(entry), for: Self.target(of: String(entry))),
                TemporaryName.isAbandoned(temporary, writer: filePID)
            {
                if unlink(temporary) == 0 { removed += 1 }
                unlink(record)
            } else if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(record)
            }
        }
        return removed
    }

    /// The path a record names.
    private static func path(in record: String) -> String? {
        guard let bytes = try? BoundedFile.read(record, limit: 8_192) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("/"), text.hasSuffix("\n") else { return nil }
        return String(text.dropLast())
    }

    /// NAME of `.NAME.reel-PID-XXXXXXXX.tmp`.
    private static func target(of entry: String) -> String {
        guard entry.hasPrefix("."), let name = prefix(of: String(entry.dropFirst())) else { return "" }
        return name
    }

    /// What comes before the last `.reel-` of `text`.
    private static func prefix(of text: String) -> String? {
        let bytes = Array(text.utf8), marker = Array(".reel-".utf8)
        guard bytes.count > marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1) where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return String(decoding: bytes[..<start], as: UTF8.self)
        }
        return nil
    }
}

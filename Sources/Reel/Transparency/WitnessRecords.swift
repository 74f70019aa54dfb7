import Crypto
import EventLog
import Failures
import Files
import Foundation

/// A witness's record of the latest checkpoint it cosigned of each log: one file per log,
/// `<directory>/<SHA-256 of the origin, hex>.checkpoint`, holding the checkpoint's body, the
/// log's signature the witness verified and its own cosignature (nothing else a submitter sent). A record is read, checked against and replaced
/// under one lock (`locked`), so two submissions cannot roll a log back between them.
struct WitnessRecords {
    let directory: String

    /// `body` run holding the records' lock (an exclusive `flock` on `<directory>/lock`, which
    /// other processes and other threads of this one respect alike).
    func locked<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(directory + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(.storage, "cannot open the witness's lock in \(directory): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(.storage, "cannot lock the witness's records in \(directory): \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    /// Whether any log's record is there (this witness has cosigned before).
    var holdsAny: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasSuffix(".checkpoint") }
    }

    /// The checkpoint last cosigned of the log `origin`, if any.
    func latest(of origin: String) throws -> Checkpoint? {
        guard let note = try note(originHash: Self.hash(origin)) else { return nil }
        guard let (body, _) = NoteVerifier.split(note), let checkpoint = Checkpoint(body: body), checkpoint.origin == origin else {
            throw Failure(.storage, "the witness's record of \(origin) is damaged (\(directory)): restore it from a backup")
        }
        return checkpoint
    }

    /// The record's note, for the log whose origin hashes to `originHash`.
    func note(originHash: String) throws -> String? {
        guard originHash.count == 64, originHash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let path = directory + "/" + originHash + ".checkpoint"
        do {
            return String(decoding: try BoundedFile.read(path, limit: 64 << 10), as: UTF8.self)
        } catch .notFound {
            return nil
        } catch {
            // Never taken for "none cosigned yet": that would cosign a rolled-back log.
            throw Failure(.storage, "cannot read the witness's record \(path): \(error.summary)")
        }
    }

    /// Replaces the record of `origin` by `note`, on disk before it returns.
    func record(_ note: String, of origin: String) throws {
        try OutputFile.write(Array(note.utf8), to: directory + "/" + Self.hash(origin) + ".checkpoint")
    }

    static func hash(_ origin: String) -> String {
        SHA256.hash(data: Array(origin.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

import EventLog
import Failures
import Files
import Foundation

/// Where a ledger's checkpoint-signing key is kept: beside the keyrings (`REEL_KEYRING`), apart
/// from the data it signs for, one file per log origin (`reel.ledger-<hex>.note-key`, mode 0600),
/// made on first use. Never in the ledger, a copy of it or an export: whoever holds the ledger
/// cannot sign a checkpoint of another one. Every host of one store must use the same directory,
/// as for its keyring.
enum LedgerSigningKey {
    /// The key of the log named `origin`, made (and kept) when there is none yet.
    static func key(for origin: String, in directory: String) throws -> NoteKey {
        try kept(at: path(for: origin, in: directory), in: directory, kind: .signature, what: "the ledger's signing key") { NoteKey(generatingFor: origin) }
    }

    /// The key of the log named `origin` when its file is there; `nil` when there is none.
    static func existing(for origin: String, in directory: String) throws -> NoteKey? {
        try read(path(for: origin, in: directory), kind: .signature, what: "the ledger's signing key")
    }

    /// The key this Reel cosigns other logs' checkpoints with as a witness (C2SP
    /// tlog-cosignature), `reel.witness.cosigner-key` beside the keyrings, made (and kept) when
    /// there is none yet: named `reel.witness/<16 random hex digits>` then, for good.
    static func witnessKey(in directory: String) throws -> NoteKey {
        try kept(at: witnessKeyPath(in: directory), in: directory, kind: .cosignature, what: "the witness's key") {
            NoteKey(generatingFor: "reel.witness/" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max)), kind: .cosignature)
        }
    }

    /// The witness's key when its file is there; `nil` when there is none.
    static func existingWitnessKey(in directory: String) throws -> NoteKey? {
        try read(witnessKeyPath(in: directory), kind: .cosignature, what: "the witness's key")
    }

    /// The key kept at `path`, made with `make` when there is none yet: written whole (mode 0600)
    /// and named by a link that never replaces (`OutputFile.create`: of two processes making it at
    /// once, one key stays and both read it), its name synced before anything it signs goes out.
    private static func kept(at path: String, in directory: String, kind: NoteKey.Kind, what: String, make: () -> NoteKey) throws -> NoteKey {
        if let existing = try read(path, kind: kind, what: what) { return existing }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            _ = try OutputFile.create(Array((make().text + "\n").utf8), at: path)
        } catch {
            throw Failure(.storage, "cannot keep \(what) at \(path): \(error)")
        }
        guard let kept = try read(path, kind: kind, what: what) else { throw Failure(.storage, "\(what) at \(path) vanished") }
        return kept
    }

    /// The witness key's file.
    static func witnessKeyPath(in directory: String) -> String { directory + "/reel.witness.cosigner-key" }

    /// The key's file for `origin`.
    static func path(for origin: String, in directory: String) -> String {
        directory + "/" + origin.replacingOccurrences(of: "/", with: "-") + ".note-key"
    }

    /// The key `path` holds; `nil` only when there is no such file (any other failure to read it
    /// is said, never taken for a missing key: a new key would disown every checkpoint signed).
    private static func read(_ path: String, kind: NoteKey.Kind, what: String) throws -> NoteKey? {
        // Never blocks (a FIFO put there would hold every reader), and only a regular file is a key.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == EACCES || errno == EPERM {
                throw Failure(.unavailable, "cannot read \(what) at \(path): \(String(cString: strerror(errno)))")
            }
            throw Failure(.tampered, "\(what) at \(path) cannot be read as a key file (\(String(cString: strerror(errno)))): restore it from its backup")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(.tampered, "\(what) at \(path) is not a file (restore the key file from its backup)")
        }
        var data = [UInt8](repeating: 0, count: 1_024)
        let count = Glibc.read(fd, &data, data.count)
        guard count >= 0 else { throw Failure(.storage, "cannot read \(what) at \(path): \(String(cString: strerror(errno)))") }
        guard let key = NoteKey(text: String(decoding: data.prefix(count), as: UTF8.self)), key.kind == kind else {
            throw Failure(.tampered, "\(what) at \(path) is not a key (restore it from its backup)")
        }
        return key
    }
}

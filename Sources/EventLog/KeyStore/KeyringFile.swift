public import Crypto
package import Failures
public import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#endif

/// A store's keyring: the key-encryption keys (KEKs) its account keys are wrapped under
/// (`KeyWrapping`), by generation, in one small file kept outside the store
/// (`Schemas/keyring-layout.md`): `DIRECTORY/STORE.keyring`, mode 0600, replaced whole (written
/// beside it, `fsync`ed, renamed over it). It holds the store's current generation and, for the
/// length of a rotation, the next one. Whoever holds the store and this file can read every live
/// account; the store without it can read none, and a generation removed from it is gone from
/// every copy of the store.
@_spi(Stores) public struct KeyringFile: Sendable {
    /// The KEKs the file holds, by generation.
    public struct Contents: Sendable {
        public let store: UUID
        public var keys: [UInt64: SymmetricKey]

        public init(store: UUID, keys: [UInt64: SymmetricKey]) {
            self.store = store
            self.keys = keys
        }

        public var generations: [UInt64] { keys.keys.sorted() }
    }

    public let directory: String
    public let store: UUID

    public init(directory: String, store: UUID) {
        self.directory = directory
        self.store = store
    }

    public var path: String { directory + "/" + store.uuidString.lowercased() + ".keyring" }

    /// The largest file a keyring can be (a few generations of a line each).
    static let maximumSize = 4_096
    static let header = "reel-keyring 1"

    /// What the file holds; `nil` when there is no file.
    public func read() throws -> Contents? {
        // Non-blocking, so a FIFO in its place is refused below rather than waited on for ever.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw damaged("it is a symbolic link (a keyring is replaced whole when it rotates: keep the file itself there)")
            case ENOTDIR: throw Failure(.usage, "the keyring directory \(directory) is not a directory")
            default: throw Self.failure(Environment.systemError("open", path), path)
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.failure(Environment.systemError("fstat", path), path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw damaged("it is not a regular file") }
        guard info.st_size <= Self.maximumSize else { throw damaged("it is \(info.st_size) bytes, more than a keyring's \(Self.maximumSize)") }
        var bytes = [UInt8](repeating: 0, count: Self.maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Self.failure(Environment.systemError("read", path), path) }
            if got == 0 { break }
            count += got
        }
        return try parse(Array(bytes[0..<count]))
    }

    func parse(_ bytes: [UInt8]) throws -> Contents {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw damaged("it is not UTF-8 text") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard !text.contains("\r") else { throw damaged("it has carriage returns (a keyring's lines end with a line feed alone)") }
        guard lines.last == "" else { throw damaged("it does not end with a line break (cut short?)") }
        lines.removeLast()
        guard lines.first == Substring(Self.header) else { throw damaged("its first line is not '\(Self.header)'") }
        guard lines.count >= 2, lines[1].hasPrefix("store "), let id = UUID(uuidString: String(lines[1].dropFirst(6))) else {
            throw damaged("its second line does not name a store")
        }
        guard id == store else { throw damaged("it names the store \(id.uuidString.lowercased()), not \(store.uuidString.lowercased())") }
        var keys: [UInt64: SymmetricKey] = [:]
        for (index, line) in lines.dropFirst(2).enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "generation", let generation = UInt64(fields[1]), generation > 0,
                let key = Data(base64Encoded: String(fields[2])), key.count == 32, keys[generation] == nil
            else { throw damaged("line \(index + 3) is not 'generation N KEY' (a new N, a base64 key of 32 bytes)") }
            keys[generation] = SymmetricKey(data: key)
        }
        guard !keys.isEmpty else { throw damaged("it holds no key") }
        return Contents(store: id, keys: keys)
    }

    /// Replaces the file with `contents`, durably: written beside it, `fsync`ed, renamed over it,
    /// the directory `fsync`ed. The replaced file's blocks are the file system's free space.
    public func write(_ contents: Contents) throws { try write(contents, as: path) }

    /// Where a rotation keeps the keyring it will leave (`STORE.keyring.next`): written while
    /// the rotation is prepared, so that leaving it takes a rename and no space (a full disk
    /// after a deletion's commit cannot stop it).
    var preparedPath: String { path + ".next" }

    /// Writes `contents` as `preparedPath`, durably, for `installPrepared` to put in place.
    package func prepare(_ contents: Contents) throws { try write(contents, as: preparedPath) }

    /// Puts the prepared file in place of the keyring: one rename, the directory `fsync`ed.
    package func installPrepared() throws {
        guard rename(preparedPath, path) == 0 else { throw Self.failure(Environment.systemError("rename", preparedPath), preparedPath) }
        try syncDirectory()
    }

    /// Removes a prepared file that was not put in place (a rotation abandoned, or one a crash
    /// stopped: never installed later, for it may drop the generation in use).
    package func removePrepared() {
        unlink(preparedPath)
    }

    private func write(_ contents: Contents, as target: String) throws {
        precondition(contents.store == store)
        try makeDirectory()
        var text = Self.header + "\nstore " + store.uuidString.lowercased() + "\n"
        for generation in contents.generations {
            contents.keys[generation]!.withUnsafeBytes { text += "generation \(generation) \(Data($0).base64EncodedString())\n" }
        }
        let next = target + ".new"
        let fd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Self.failure(Environment.systemError("open", next), next) }
        var ok = false
        defer {
            close(fd)
            if !ok { unlink(next) }
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let wrote = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Self.failure(Environment.systemError("write", next), next) }
            written += wrote
        }
        guard fsync(fd) == 0 else { throw Self.failure(Environment.systemError("fsync", next), next) }
        guard rename(next, target) == 0 else { throw Self.failure(Environment.systemError("rename", next), next) }
        ok = true
        try syncDirectory()
    }

    /// Whether any generation the file holds opens `wrapped`, a key stored for `stream`, and
    /// what it opens to (for audits and tests: "does anything that exists still open this?").
    public func opening(_ wrapped: [UInt8], stream: String) throws -> [UInt8]? {
        guard let contents = try read() else { return nil }
        for (generation, kek) in contents.keys {
            if let key = KeyWrapping.unwrap(wrapped, stream: stream, generation: generation, store: store, under: kek) { return key }
        }
        return nil
    }

    /// Removes the file (a keyring made for a store that another process adopted first).
    public func remove() throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw Self.failure(Environment.systemError("unlink", path), path) }
        try syncDirectory()
    }

    /// Runs `body` holding `STORE.lock` beside the file, exclusive: rotations, and the repair of
    /// one that stopped midway, take turns (a lock file made once and never removed).
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        try makeDirectory()
        do {
            return try FileLock(path: directory + "/" + store.uuidString.lowercased() + ".lock", readOnly: false).withLock(.exclusive, body)
        } catch let error as LMDBError {
            throw Self.failure(error, directory)
        }
    }

    /// Takes `STORE.lock` (as `withLock` does) and keeps it until the holder releases it: the
    /// LMDB key store holds it from a replacement's start to its end.
    package func acquireLock() throws -> FileLock.Held {
        try makeDirectory()
        do {
            return try FileLock(path: directory + "/" + store.uuidString.lowercased() + ".lock", readOnly: false).acquire(.exclusive)
        } catch let error as LMDBError {
            throw Self.failure(error, directory)
        }
    }

    func makeDirectory() throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw Failure(.usage, "the keyring directory \(directory) is not a directory") }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory, stat(parent, &info) != 0 {
            try KeyringFile(directory: parent, store: store).makeDirectory()
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw Self.failure(Environment.systemError("mkdir", directory), directory) }
    }

    func syncDirectory() throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure(Environment.systemError("open", directory), directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Self.failure(Environment.systemError("fsync", directory), directory) }
    }

    package func damaged(_ why: String) -> Failure {
        Failure(.tampered, "the keyring \(path) is damaged: \(why); restore it from its backup")
    }

    /// Why `store`, at generation `needs`, cannot use this keyring, which holds `has`: the store
    /// is a copy from before the keyring moved on (`copied` says which copy), or the keyring is
    /// behind the store (`behind` says what to do).
    package func stale(has: [UInt64], needs: UInt64, store: String, copied: String, behind: String) -> Failure {
        let held = "the keyring \(path) holds generation \(has.map(String.init).joined(separator: ", ")) but \(store) is at generation \(needs)"
        if let newest = has.last, newest > needs {
            return Failure(
                .tampered, held + ": \(copied), whose keys are wrapped under a generation that no longer exists; nothing of it can be read")
        }
        return Failure(.tampered, held + behind)
    }

    static func failure(_ error: LMDBError, _ path: String) -> Failure {
        switch error.code.rawValue {
        case ENOSPC, EDQUOT: Failure(.noSpace, "no space left for the keyring \(path)")
        case EACCES, EPERM, EROFS: Failure(.unavailable, "the keyring \(path) cannot be changed: \(error.message)")
        default: Failure(.storage, "the keyring \(path): \(error.message)")
        }
    }
}

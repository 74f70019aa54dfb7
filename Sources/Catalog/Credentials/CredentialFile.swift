import Files
import Foundation
import JSONKit

/// Reel's small secret files in its XDG config directory (`credentials.json` for TMDb,
/// `omdb.json` for OMDb, the OMDb budget's salt): read only when they are a regular file of at
/// most 64 KiB, written whole or not at all with mode 0600 in a 0700 directory. Nothing here
/// ever puts a secret in a message.
enum CredentialFile {
    /// The most such a file is read: 64 KiB.
    static let maximumBytes = 65_536

    /// Reel's config directory: `$XDG_CONFIG_HOME/reel`, else `~/.config/reel`.
    static func directory(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/reel" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/reel"
    }

    /// The file's bytes; nil when there is no file. Anything may stand at the path: a FIFO would
    /// hang every command and /dev/zero never end, so only a small regular file is read.
    static func read(_ path: String) throws(CredentialStore.StoreError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "is not a regular file") }
        guard info.st_size <= maximumBytes else {
            throw .unreadable(path: path, reason: "is larger than \(maximumBytes) bytes, more than a credential takes")
        }
        do { return try BoundedFile.read(path, limit: maximumBytes) } catch {
            throw .unreadable(path: path, reason: "cannot be read")
        }
    }

    /// The file's JSON object; nil when there is no file.
    static func readObject(_ path: String) throws(CredentialStore.StoreError) -> [String: JSONValue]? {
        guard let bytes = try read(path) else { return nil }
        guard let object = (try? JSONValue(parsing: bytes))?.objectValue else { throw .unreadable(path: path, reason: "is not a JSON object") }
        return object
    }

    /// Writes `bytes` through `OutputFile` (mode 0600 from the first byte; a symbolic link or
    /// anything but a regular file at the path is refused and left as it is).
    static func write(_ bytes: [UInt8], to path: String) throws(CredentialStore.StoreError) {
        try makeDirectory(for: path)
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw .unwritable(path: path, reason: reason(error))
        }
    }

    /// Makes the directory `path` goes in (mode 0700) when it is missing.
    private static func makeDirectory(for path: String) throws(CredentialStore.StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: directory, reason: "cannot create the directory")
        }
    }

    /// Writes `bytes` as `write` does unless something is at `path` already (`OutputFile.create`):
    /// false then, and that is left as it is.
    static func create(_ bytes: [UInt8], at path: String) throws(CredentialStore.StoreError) -> Bool {
        try makeDirectory(for: path)
        do {
            return try OutputFile.create(bytes, at: path)
        } catch {
            throw .unwritable(path: path, reason: reason(error))
        }
    }

    /// `{"NAME": "SECRET"}` and a line break.
    static func object(_ name: String, _ secret: String) -> [UInt8] {
        var bytes = Array("{".utf8)
        JSONValue.writeString(name, to: &bytes)
        bytes.append(contentsOf: ": ".utf8)
        JSONValue.writeString(secret, to: &bytes)
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    /// Removes the file; true when there was one.
    static func remove(_ path: String) throws(CredentialStore.StoreError) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard unlink(path) == 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        return true
    }

    /// True when the file exists and others than its owner may read or write it.
    static func isExposed(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = attributes[.posixPermissions] as? NSNumber else { return false }
        return mode.intValue & 0o077 != 0
    }

    /// The secret in `raw` (from `source`: a variable's name, a path); nil when blank.
    static func secret(_ raw: String, from source: String, service: String) throws(CredentialStore.StoreError) -> String? {
        switch Credentials.given(raw) {
        case .empty: return nil
        case .secret(let secret): return secret
        case .malformed: throw .malformed(source: source, service: service)
        }
    }

    /// What follows "cannot write PATH: " for a failed write.
    private static func reason(_ error: OutputFileError) -> String {
        switch error {
        case .permission(_, let reason), .writeFailed(_, let reason): reason
        case .notRegularFile(_, let kind): "it is \(kind)"
        case .noDirectory(_, let directory): "the directory \(directory) does not exist"
        case .invalidPath: "it is not the path of a file"
        }
    }
}

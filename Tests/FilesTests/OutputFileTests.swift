import Foundation
import Processes
import ReelTestSupport
import Testing

@testable import Files

#if canImport(Glibc)
import Glibc
#endif

/// `OutputFile` writes a new file or replaces a regular one, whole, mode 0600, and nothing else:
/// a device, a FIFO, a socket, a directory or a symbolic link at the path is refused and left as
/// it was. Written through an unnamed file, a write leaves nothing behind at any step before the
/// file gets its name; where a temporary name is needed, it is findable and removed once its
/// writer is gone.
@Suite struct OutputFileTests {
    static let bytes = Array("{\"secret\": \"plaintext export\"}\n".utf8)

    static func entries(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode
    }

    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    @Test(arguments: [true, false])
    func aNewFileIsWrittenWholeWithMode0600AndNothingBeside(unnamed: Bool) throws {
        let dir = temporaryDirectory("out")
        try OutputFile.write(Self.bytes, to: dir + "/export.json", unnamedTemporary: unnamed)
        #expect(Self.contents(dir + "/export.json") == Self.bytes)
        #expect(Self.mode(dir + "/export.json") & 0o7777 == 0o600)
        #expect(Self.mode(dir + "/export.json") & S_IFMT == S_IFREG)
        #expect(Self.entries(dir) == ["export.json"])
    }

    @Test(arguments: [true, false])
    func aRegularFileIsReplacedWhole(unnamed: Bool) throws {
        let dir = temporaryDirectory("out")
        let path = dir + "/export.json"
        try Data("old and longer than the new one, readable by all".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        try OutputFile.write(Self.bytes, to: path, unnamedTemporary: unnamed)
        #expect(Self.contents(path) == Self.bytes)
        #expect(Self.mode(path) & 0o7777 == 0o600)
        #expect(Self.entries(dir) == ["export.json"])
    }

    @Test(arguments: [true, false])
    func createMakesANewFileAndNeverReplacesOne(unnamed: Bool) throws {
        let dir = temporaryDirectory("out")
        let path = dir + "/salt"
        #expect(try OutputFile.create(Self.bytes, at: path, unnamedTemporary: unnamed))
        #expect(Self.contents(path) == Self.bytes)
        #expect(Self.mode(path) & 0o7777 == 0o600)
        #expect(try !OutputFile.create(Array("another".utf8), at: path, unnamedTemporary: unnamed), "the file there is kept")
        #expect(Self.contents(path) == Self.bytes)
        #expect(Self.entries(dir) == ["salt"])
        #expect(throws: OutputFileError.self) { try OutputFile.create(Self.bytes, at: dir, unnamedTemporary: unnamed) }
    }

    /// A relative path (no directory part) too. The working directory is the process's: this is
    /// the one test that changes it, both ways in turn (two cases running at once each changed it
    /// under the other, and one wrote where the other had gone).
    @Test func aRelativePathIsWrittenInTheWorkingDirectory() throws {
        for unnamed in [true, false] {
            let dir = temporaryDirectory("out")
            let cwd = FileManager.default.currentDirectoryPath
            defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
            _ = FileManager.default.changeCurrentDirectoryPath(dir)
            try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/export.json"))
            try OutputFile.write(Self.bytes + Self.bytes, to: "export.json", unnamedTemporary: unnamed)
            #expect(Self.contents(dir + "/export.json") == Self.bytes + Self.bytes, "unnamed: \(unnamed)")
            #expect(Self.entries(dir) == ["export.json"], "unnamed: \(unnamed)")
        }
    }

    /// Whatever is at the path that is not a regular file, refused and left exactly as it was.
    @Test func devicesFIFOsSocketsDirectoriesAndLinksAreRefusedAndLeftAsTheyWere() throws {
        let dir = temporaryDirectory("out")
        mkfifo(dir + "/fifo", 0o600)
        mkdir(dir + "/directory", 0o700)
        symlink(dir + "/target.json", dir + "/link-to-file")
        try Data("target".utf8).write(to: URL(fileURLWithPath: dir + "/target.json"))
        symlink("/dev/null", dir + "/link-to-null")
        symlink(dir + "/nowhere.json", dir + "/dangling")
        let socketPath = dir + "/socket"
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        defer { close(sock) }
        // A character device of our own (as root; else /dev/null itself stands in).
        let device = mknod(dir + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 ? dir + "/null" : "/dev/null"

        let cases: [(String, String, mode_t)] = [
            (device, "a character device", S_IFCHR), ("/dev/null", "a character device", S_IFCHR), (dir + "/fifo", "a FIFO", S_IFIFO),
            (socketPath, "a socket", S_IFSOCK), (dir + "/directory", "a directory", S_IFDIR),
            (dir + "/link-to-file", "a symbolic link", S_IFLNK), (dir + "/link-to-null", "a symbolic link", S_IFLNK),
            (dir + "/dangling", "a symbolic link", S_IFLNK),
        ]
        for unnamed in [true, false] {
            for (path, kind, type) in cases {
                var before = stat()
                lstat(path, &before)
                #expect(throws: OutputFileError.self) { try OutputFile.write(Self.bytes, to: path, unnamedTemporary: unnamed) }
                do {
                    try OutputFile.write(Self.bytes, to: path, unnamedTemporary: unnamed)
                } catch {
                    #expect(error.description.hasPrefix("\(path) is \(kind)"), "\(error)")
                }
                var after = stat()
                #expect(lstat(path, &after) == 0)
                #expect(after.st_mode & S_IFMT == type, "\(path) was replaced")
                #expect(after.st_ino == before.st_ino && after.st_rdev == before.st_rdev, "\(path) was replaced")
            }
        }
        #expect(Self.contents(dir + "/target.json") == Array("target".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere.json"))
        #expect(Self.entries(dir + "/directory") == [])
        #expect(Self.entries(dir).filter { $0.hasPrefix(".") } == [])
    }

    @Test func pathsThatCannotNameAFileAreRefused() throws {
        let dir = temporaryDirectory("out")
        #expect(throws: OutputFileError.invalidPath("")) { try OutputFile.write(Self.bytes, to: "") }
        #expect(throws: OutputFileError.invalidPath(dir + "/")) { try OutputFile.write(Self.bytes, to: dir + "/") }
        #expect(throws: OutputFileError.invalidPath(dir + "/..")) { try OutputFile.write(Self.bytes, to: dir + "/..") }
        #expect(throws: OutputFileError.noDirectory(path: dir + "/no/x.json", directory: dir + "/no")) {
            try OutputFile.write(Self.bytes, to: dir + "/no/x.json")
        }
        #expect(Self.entries(dir) == [])
    }

    /// Until the file has its name, an unnamed write has nothing in the directory: a kill at
    /// `.written` leaves nothing. Replacing a file, the temporary name exists only at `.named`,
    /// and it is recorded under the data directory for `account delete`.
    @Test func anUnnamedWriteHasNoNameBeforeItIsPublished() throws {
        let dir = temporaryDirectory("out")
        let data = temporaryDirectory("data")
        let pending = PendingExports(dataDirectory: data)
        var seen: [String: [String]] = [:]
        try OutputFile.write(Self.bytes, to: dir + "/new.json", pending: pending, stream: "account-1") { step in
            seen["new " + step.rawValue] = Self.entries(dir)
        }
        #expect(seen == ["new written": []])
        try OutputFile.write(Self.bytes, to: dir + "/new.json", pending: pending, stream: "account-1") { step in
            seen["replace " + step.rawValue] = Self.entries(dir)
            if step == .named {
                let records = Self.entries(pending.directory)
                #expect(records.count == 1 && records[0].hasPrefix("account-1.reel-\(getpid())-"), "\(records)")
                let recorded = String(decoding: Self.contents(pending.directory + "/" + records[0]) ?? [], as: UTF8.self)
                #expect(recorded.hasPrefix("/") && recorded.hasSuffix(".tmp\n"), "\(recorded)")
                #expect(FileManager.default.fileExists(atPath: String(recorded.dropLast())))
            }
        }
        #expect(seen["replace written"] == ["new.json"])
        #expect(seen["replace named"]?.count == 2 && seen["replace named"]?.contains { $0.hasPrefix(".new.json.reel-\(getpid())-") } == true)
        #expect(Self.entries(dir) == ["new.json"])
        #expect(Self.entries(pending.directory) == [])
    }

    /// A pid that no process has: one that has just exited.
    static func deadPID() throws -> pid_t {
        let process = try ChildProcess.spawn(["/bin/true"])
        _ = process.wait()
        return process.pid
    }

    /// What a killed writer left beside the target (the documented name, its writer gone) is
    /// removed by the next write to the same place; a live writer's (locked), other names and
    /// other targets' are left alone.
    @Test func theNextWriteToTheSamePlaceRemovesWhatAKilledWriterLeft() throws {
        let dir = temporaryDirectory("out")
        let dead = try Self.deadPID()
        let left = ".export.json.reel-\(dead)-0000abcd.tmp"
        let live = ".export.json.reel-\(getpid())-1234abcd.tmp"
        let others = [".other.json.reel-\(dead)-0000abcd.tmp", ".export.json.reel-\(dead)-xyz.tmp", "export.json.bak", ".export.json.1234.tmp"]
        for name in [left, live] + others { try Data(Self.bytes).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        let held = open(dir + "/" + live, O_RDONLY)
        #expect(flock(held, LOCK_EX) == 0)
        defer { close(held) }
        try OutputFile.write(Self.bytes, to: dir + "/export.json")
        #expect(Self.entries(dir) == ([live, "export.json"] + others).sorted())
    }

    /// The records under the data directory lead `sweep` to killed exports' temporary files
    /// anywhere; a live export's stay, and so does what is not such a file.
    @Test func theRecordsLeadToKilledExportsTemporaryFiles() throws {
        let data = temporaryDirectory("data")
        let pending = PendingExports(dataDirectory: data)
        let elsewhere = temporaryDirectory("elsewhere")
        let dead = try Self.deadPID()
        var serial = 0
        func leave(_ name: String, stream: String, writer: pid_t) throws -> String {
            let path = elsewhere + "/" + name
            try Data(Self.bytes).write(to: URL(fileURLWithPath: path))
            serial += 1
            let record = pending.directory + "/\(stream).reel-\(writer)-0000bee\(serial)"
            try? FileManager.default.createDirectory(atPath: pending.directory, withIntermediateDirectories: true)
            try Data((path + "\n").utf8).write(to: URL(fileURLWithPath: record))
            return path
        }
        let killedA = try leave(".a.json.reel-\(dead)-00000001.tmp", stream: "account-a", writer: dead)
        let killedB = try leave(".b.json.reel-\(dead)-00000002.tmp", stream: "account-b", writer: dead)
        let running = try leave(".c.json.reel-\(getpid())-00000003.tmp", stream: "account-a", writer: getpid())
        let notOurs = try leave("notes.txt", stream: "account-a", writer: dead)
        #expect(pending.sweep(stream: "account-a") == 1)
        #expect(!FileManager.default.fileExists(atPath: killedA))
        #expect(FileManager.default.fileExists(atPath: killedB) && FileManager.default.fileExists(atPath: running))
        #expect(FileManager.default.fileExists(atPath: notOurs))
        #expect(pending.sweep() == 1)
        #expect(!FileManager.default.fileExists(atPath: killedB) && FileManager.default.fileExists(atPath: running))
        #expect(Self.entries(pending.directory) == ["account-a.reel-\(getpid())-0000bee3"])
    }
}

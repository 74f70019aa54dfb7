import Foundation
import ReelTestSupport
import Testing

@testable import Files

#if canImport(Glibc)
import Glibc
#endif

/// Files a person names are read whole but never past their limit: at most `limit + 1` bytes,
/// whatever the file is (regular, a device, a FIFO, a `/proc` file reporting size 0).
@Suite struct BoundedFileTests {
    private func file(_ bytes: [UInt8]) throws -> String {
        let path = temporaryDirectory("bounded") + "/file"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileUpToTheLimitIsReadWholeAndOneByteMoreIsRefused() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try BoundedFile.read(try file(bytes), limit: 100_000) == bytes)
        #expect(try BoundedFile.read(try file(bytes), limit: 1_000_000) == bytes)
        #expect(try BoundedFile.read(try file([]), limit: 10) == [])
        let path = try file(bytes)
        #expect(throws: InputFileError.tooLarge(path: path, limit: 99_999)) { try BoundedFile.read(path, limit: 99_999) }
    }

    @Test func missingFilesAndDirectoriesAreNamed() throws {
        let dir = temporaryDirectory("bounded")
        #expect(throws: InputFileError.notFound(path: dir + "/none")) { try BoundedFile.read(dir + "/none", limit: 10) }
        #expect(throws: InputFileError.isDirectory(path: dir)) { try BoundedFile.read(dir, limit: 10) }
    }

    /// `/dev/zero` never ends: the read stops one byte past the limit.
    @Test func anEndlessDeviceIsRefusedAfterTheLimit() throws {
        #expect(throws: InputFileError.tooLarge(path: "/dev/zero", limit: 5_000_000)) { try BoundedFile.read("/dev/zero", limit: 5_000_000) }
        #expect(try BoundedFile.read("/dev/null", limit: 10) == [])
    }

    /// `/proc` files report size 0 but have content: it is read, within the limit.
    @Test func aProcFileReportingSizeZeroIsReadWithinTheLimit() throws {
        var info = stat()
        #expect(stat("/proc/self/status", &info) == 0 && info.st_size == 0)
        let status = String(decoding: try BoundedFile.read("/proc/self/status", limit: 1 << 20), as: UTF8.self)
        #expect(status.contains("Pid:"))
        #expect(throws: InputFileError.tooLarge(path: "/proc/self/status", limit: 10)) { try BoundedFile.read("/proc/self/status", limit: 10) }
    }

    /// A FIFO fed without end: the reader stops one byte past the limit, so what the writer got
    /// into the pipe is the limit plus at most the pipe's buffer.
    @Test func anEndlessFIFOIsRefusedAfterTheLimitAndTheWriterIsHeldBack() throws {
        let path = temporaryDirectory("fifo") + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let limit = 3_000_000
        // Held open for reading and writing until the read is over, so the writer's open does not
        // wait and the reader never sees the FIFO without a writer.
        let holder = open(path, O_RDWR | O_CLOEXEC)
        #expect(holder >= 0)
        let capacity = Int(fcntl(holder, 1032 /* F_GETPIPE_SZ */))
        signal(SIGPIPE, SIG_IGN)
        let written = Counter()
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            defer { written.finish() }
            guard fd >= 0 else { return }
            let block = [UInt8](repeating: 0x41, count: 65_536)
            while true {
                let n = block.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                if n <= 0 { break }
                written.add(n)
            }
            close(fd)
        }
        writer.start()
        #expect(throws: InputFileError.tooLarge(path: path, limit: limit)) { try BoundedFile.read(path, limit: limit) }
        close(holder)  // no reader left: the writer's next write fails
        written.waitUntilFinished()
        #expect(capacity > 0)
        #expect(written.value <= limit + 1 + max(capacity, 0) + 65_536, "the writer got \(written.value) bytes in")
    }

    /// A FIFO nobody writes to reads as empty at once: the command does not hang waiting. (No
    /// writer ever comes while it reads: one that waited would wait for ever.)
    @Test func aFIFOWithoutAWriterReadsAsEmptyWithoutWaiting() async throws {
        let path = temporaryDirectory("fifo") + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(try await withoutAWriter(at: path) { try BoundedFile.read(path, limit: 100) } == [])
    }

    @Test func aPipeIsReadUpToTheLimit() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let text = Array("token\nrest".utf8)
        _ = text.withUnsafeBytes { write(fds[1], $0.baseAddress!, $0.count) }
        close(fds[1])
        #expect(try BoundedFile.read(descriptor: fds[0], limit: 10, name: "standard input") == text)
        close(fds[0])
        #expect(pipe(&fds) == 0)
        _ = text.withUnsafeBytes { write(fds[1], $0.baseAddress!, $0.count) }
        close(fds[1])
        #expect(throws: InputFileError.tooLarge(path: "standard input", limit: 9)) {
            try BoundedFile.read(descriptor: fds[0], limit: 9, name: "standard input")
        }
        close(fds[0])
    }

    @Test func byteCountsAreSaidInWords() {
        #expect(ByteCount.words(5_000_000) == "5,000,000 bytes (5 MB)")
        #expect(ByteCount.words(512 << 20) == "536,870,912 bytes (512 MiB)")
        #expect(ByteCount.words(4_096) == "4,096 bytes (4 KiB)")
        #expect(ByteCount.words(999) == "999 bytes")
    }
}

/// A byte count shared with a writer thread.
final class Counter: @unchecked Sendable {
    private let lock = NSCondition()
    private var count = 0
    private var done = false

    var value: Int { lock.withLock { count } }
    func add(_ n: Int) { lock.withLock { count += n } }
    func finish() {
        lock.withLock {
            done = true
            lock.broadcast()
        }
    }
    func waitUntilFinished() {
        lock.lock()
        while !done { lock.wait() }
        lock.unlock()
    }
}

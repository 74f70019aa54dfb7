import Foundation
import ReelTestSupport
import Synchronization

@testable import TerminalGraphics

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal the test drives as the terminal: the program under test (the probe) gets
/// the slave side as its input and output; the test reads the queries from the master side and
/// answers them as kitty would, or a sixel terminal, or not at all.
final class FakeTerminal {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let master: Int32
    let slave: Int32

    init(columns: Int = 80, rows: Int = 24, pixelWidth: Int = 0, pixelHeight: Int = 0) throws {
        // posix_openpt, unlockpt and ptsname as glibc does them (the Glibc module lacks openpty).
        let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, unlockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open /dev/pts/\(number)")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(pixelWidth), ws_ypixel: UInt16(pixelHeight))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Reads what the program wrote until it ends with `end` (by default the device-attributes
    /// query, the probe's last); `seconds` (generous) detect a program that never writes it.
    func readQueries(until end: String = "\u{1B}[c", seconds: Double = 60) throws -> [UInt8] {
        let needle = Array(end.utf8)
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !(received.count >= needle.count && received.suffix(needle.count).elementsEqual(needle)) {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { throw Failure(description: "no queries within \(seconds) s, got \(String(decoding: received, as: UTF8.self).debugDescription)") }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, left) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the pseudo-terminal closed") }
            received += buffer[0..<count]
        }
        return received
    }

    /// Whatever the program wrote so far (nothing, for a probe that must not ask): a mark written
    /// after it, as the program's next output, is read back, and what came before it is what the
    /// program wrote. A wait for the mark, never a fixed time for output that may not come.
    func written() throws -> [UInt8] {
        let mark = "<the test's mark \(UInt64.random(in: 0...UInt64.max))>"
        _ = Array(mark.utf8).withUnsafeBytes { write(slave, $0.baseAddress, $0.count) }
        let received = try readQueries(until: mark)
        return Array(received.dropLast(mark.utf8.count))
    }

    /// Types (or answers) `text` as the terminal.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The slave's local modes (canonical, echo), to see they are restored.
    func localModes() -> tcflag_t {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings.c_lflag
    }
}

/// Runs the probe on a thread of its own, as a program at that terminal would, while the test
/// plays the terminal; `result()` waits for it (with a generous bound, so a hang fails the test).
///
/// The probe waits for answers on `clock`, which moves only when the test moves it: the timeout
/// passes when the test says so (`expire()`), never because the machine was slow to answer, and
/// `looks` counts the times the probe looked at the clock.
final class ProbeRun: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: (capabilities: TerminalCapabilities, typedAhead: [UInt8])?
    let clock = ManualClock()
    /// Where the probe's timeout ends on `clock`.
    let deadline: ManualClock.Instant
    private let looked = Mutex(0)
    private let returned = Mutex(false)

    /// `timeout` is the probe's (its findings name it; tmux gets half of it on the continuous clock).
    init(input: Int32, output: Int32, environment: [String: String], timeout: Duration = .milliseconds(150)) {
        let clock = clock, deadline = clock.now.advanced(by: timeout)
        self.deadline = deadline
        let slices = AnswerDeadline.on(clock, at: deadline)
        let answersBy = AnswerDeadline { [self] in
            looked.withLock { $0 += 1 }
            return slices.nextWait()
        }
        Thread.detachNewThread { [self] in
            outcome = TerminalProbe.probe(input: input, output: output, environment: environment, timeout: timeout, answersBy: answersBy)
            returned.withLock { $0 = true }
            done.signal()
        }
    }

    /// How many times the probe asked how long it may still wait.
    var looks: Int { looked.withLock { $0 } }

    /// Whether the probe has returned.
    var hasReturned: Bool { returned.withLock { $0 } }

    /// Moves the probe's clock to `offset` before its deadline (zero: the deadline itself).
    func expire(before offset: Duration = .zero) { clock.advance(to: deadline.advanced(by: .zero - offset)) }

    /// `result()`, waited for off the concurrency pool.
    func finished() async throws -> (capabilities: TerminalCapabilities, typedAhead: [UInt8]) {
        try await offThread { try self.result() }
    }

    func result(seconds: Double = 60) throws -> (capabilities: TerminalCapabilities, typedAhead: [UInt8]) {
        guard done.wait(timeout: .now() + seconds) == .success, let outcome else {
            throw FakeTerminal.Failure(description: "the probe did not return within \(seconds) s")
        }
        return outcome
    }

    /// A value handed between threads.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var value: TerminalCapabilities?
        func set(_ value: TerminalCapabilities) { lock.withLock { self.value = value } }
        func get() -> TerminalCapabilities? { lock.withLock { value } }
    }
}

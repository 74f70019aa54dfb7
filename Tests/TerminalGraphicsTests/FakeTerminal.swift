import Foundation

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
    /// query, the probe's last), or `seconds` pass.
    func readQueries(until end: String = "\u{1B}[c", seconds: Double = 5) throws -> [UInt8] {
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

    /// Whatever the program wrote within `milliseconds` (nothing, for a probe that must not ask).
    func drain(milliseconds: Int32 = 100) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, milliseconds) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
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
/// plays the terminal; `result()` waits for it (with a bound, so a hang fails the test).
final class ProbeRun: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: (capabilities: TerminalCapabilities, typedAhead: [UInt8], seconds: Double)?

    init(input: Int32, output: Int32, environment: [String: String], timeout: Duration = .milliseconds(150)) {
        Thread.detachNewThread { [self] in
            let start = Date()
            let (capabilities, typed) = TerminalProbe.probe(input: input, output: output, environment: environment, timeout: timeout)
            outcome = (capabilities, typed, Date().timeIntervalSince(start))
            done.signal()
        }
    }

    func result(seconds: Double = 10) throws -> (capabilities: TerminalCapabilities, typedAhead: [UInt8], seconds: Double) {
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

import Foundation
package import Processes
import ReelTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
package import Glibc
#endif

/// A program in a pseudo-terminal of its own (a new session, the slave its stdin, stdout and
/// stderr) whose every byte is kept: what a terminal receives, escape sequences and all, which
/// tmux (`TerminalSession`) would interpret or drop. Every wait has a deadline; `deinit` kills
/// the program.
package final class RawTerminal {
    /// How long a wait goes on by default before it gives up (`TerminalSession.patience`).
    package static let patience = TerminalSession.patience

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    private let child: ChildProcess
    package var pid: pid_t { child.pid }
    private let master: Int32
    /// How the program ended, once it has: reaped on a thread of its own from the start, so how
    /// long it ran is read as it ends, however late this side looks.
    private let ending = Ending()

    private final class Ending: Sendable {
        private let exit = Mutex<ChildProcess.Exit?>(nil)
        package var value: ChildProcess.Exit? {
            get { exit.withLock { $0 } }
            set { exit.withLock { $0 = newValue } }
        }
    }
    /// Everything the program wrote so far.
    package private(set) var output: [UInt8] = []

    package init(_ command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        // posix_openpt, unlockpt and ptsname as glibc does them (the Glibc module lacks them):
        // /dev/ptmx, TIOCSPTLCK, TIOCGPTN.
        let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, unlockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else {
            throw Failure("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        do {
            // Opened after setsid: the controlling terminal.
            child = try ChildProcess.spawn(
                command, environment: environment, standardInput: .terminal("/dev/pts/\(number)"), standardOutput: .sameAs(0),
                standardError: .sameAs(0), newSession: true)
        } catch {
            close(master)
            throw Failure("cannot run \(command[0]): \(error)")
        }
        // Reaped on a thread of its own from the start: not a task, which a busy pool may start late.
        Thread.detachNewThread { [child, ending] in ending.value = child.waitForExit() }
    }

    deinit {
        // Killed if still running (the reaper then reaps it).
        if ending.value == nil { child.signal(SIGKILL) }
        close(master)
    }

    /// The output as text (invalid UTF-8 replaced).
    package var text: String { String(decoding: output, as: UTF8.self) }

    /// Types `text` at the terminal.
    package func type(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(master, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure("cannot type at the pseudo-terminal")
        }
    }

    /// Reads until the output (from byte `from`) contains `text`; throws after `seconds`.
    /// Returns where `text` ended, for the next wait to start from.
    @discardableResult
    package func waitFor(_ text: String, from: Int = 0, seconds: Double = RawTerminal.patience) async throws -> Int {
        let needle = Array(text.utf8)
        var budget = WaitBudget(seconds: seconds)
        while true {
            if let end = Self.find(needle, in: output, from: from) { return end }
            guard !budget.isSpent else {
                throw Failure("no \(text.debugDescription) within \(seconds) s in \(self.text.suffix(2000).debugDescription)")
            }
            try await read(&budget)
        }
    }

    /// Reads until nothing came for `quiet` milliseconds.
    package func settle(quiet: Int = 300) async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try await read(milliseconds: quiet) {}
    }

    /// Waits (reading) for the program to end: its exit status (128 + the signal that ended it).
    package func waitForExit(seconds: Double = 10) async throws -> Int32 {
        try await waitForEnd(seconds: seconds).status
    }

    /// Waits (reading) for the program to end: how it ended and how long it ran.
    package func waitForEnd(seconds: Double = 10) async throws -> ChildProcess.Exit {
        var budget = WaitBudget(seconds: seconds)
        while true {
            if let ended = ending.value {
                while readAvailable() {}
                return ended
            }
            guard !budget.isSpent else { throw Failure("\(pid) did not exit within \(seconds) s") }
            try await read(&budget)
        }
    }

    /// The end of the first `needle` in `haystack` from `from`.
    package static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        for start in from...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start + needle.count }
        }
        return nil
    }

    /// Reads what has come, then pauses on `budget`.
    private func read(_ budget: inout WaitBudget) async throws {
        readAvailable()
        try await budget.pause(.milliseconds(10))
    }

    /// Reads what comes within `milliseconds` (looking every 10 ms, sleeping off the thread in
    /// between); false when nothing did.
    @discardableResult
    private func read(milliseconds: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            if readAvailable() { return true }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Reads what has come, without waiting; false when nothing had.
    @discardableResult
    private func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var got = false
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            output += chunk[..<n]
            got = true
        }
        return got
    }
}


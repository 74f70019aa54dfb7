import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// A process in a pseudo-terminal of its own, as a user's terminal would run it: a new session
/// whose controlling terminal is the slave (stdin, stdout and stderr), at a fixed size. Everything
/// it writes is read from the master and counted (`outputBytes`), so it never blocks on a full
/// terminal. With `trace`, the app's frame trace (`REEL_UI_TRACE`) comes back on a pipe, fd 3 in
/// the child, read line by line. It answers the primary device attributes (`CSI c`) as xterm
/// does, without sixel, so a program that asks the terminal what it can show (`reel ui` before it
/// starts) waits one round trip, as at a real terminal, not for its timeout. Every wait has a
/// deadline; `kill()` ends the child.
final class PseudoTerminal {
    let pid: pid_t
    /// CLOCK_MONOTONIC nanoseconds just before the spawn.
    let spawned: UInt64
    private let master: Int32
    private var traceEnd: Int32 = -1
    private var traceBuffer: [UInt8] = []
    /// Bytes the program wrote to the terminal so far.
    private(set) var outputBytes = 0
    private var exited: Int32?
    /// CLOCK_MONOTONIC nanoseconds when the child was seen to have ended.
    private(set) var ended: UInt64?
    /// The most VmHWM (peak resident memory of the program's own image, KiB) seen by `samplePeak`.
    private(set) var peakKiB = 0

    init(_ command: [String], environment: [String: String], width: Int, height: Int, trace: Bool) throws {
        // posix_openpt, unlockpt and ptsname as glibc does them on Linux (Swift's Glibc module
        // does not declare the XSI functions): /dev/ptmx, TIOCSPTLCK, TIOCGPTN (whose values,
        // _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned), it does not import either).
        let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, unlockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else {
            throw BenchmarkError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else { throw BenchmarkError("cannot size the pseudo-terminal") }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        var traceWrite: Int32 = -1
        if trace {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw BenchmarkError("cannot make a pipe") }
            traceEnd = ends[0]
            traceWrite = ends[1]
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(traceEnd, F_SETFL, fcntl(traceEnd, F_GETFL) | O_NONBLOCK)
        }
        defer { if traceWrite >= 0 { Glibc.close(traceWrite) } }

        spawned = Self.now()
        do {
            // The slave, opened after setsid, becomes the session's controlling terminal.
            pid = try ChildProcess.spawn(
                command, environment: environment, standardInput: .terminal(slave), standardOutput: .sameAs(0),
                standardError: .sameAs(0), more: traceWrite >= 0 ? [.descriptor(traceWrite)] : [], newSession: true
            ).pid
        } catch {
            Glibc.close(master)
            throw BenchmarkError("\(error)")
        }
    }

    deinit {
        kill()
        Glibc.close(master)
        if traceEnd >= 0 { Glibc.close(traceEnd) }
    }

    /// CLOCK_MONOTONIC in nanoseconds (the clock of the app's trace).
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Types `bytes` at the terminal; returns when they were written (CLOCK_MONOTONIC ns).
    @discardableResult
    func type(_ bytes: [UInt8]) throws -> UInt64 {
        let sent = Self.now()
        guard bytes.withUnsafeBytes({ write(master, $0.baseAddress, $0.count) }) == bytes.count else {
            throw BenchmarkError("cannot type at the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        return sent
    }

    /// Writes `bytes` at the terminal as a paste comes: all of them, as fast as the terminal takes
    /// them, reading what the program writes meanwhile (so neither side waits on the other);
    /// returns when the first was written (CLOCK_MONOTONIC ns). Throws after `seconds`.
    @discardableResult
    func paste(_ bytes: [UInt8], within seconds: Double = 60) throws -> UInt64 {
        let sent = Self.now(), deadline = sent + UInt64(seconds * 1e9)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0 && (errno == EAGAIN || errno == EINTR) else {
                throw BenchmarkError("cannot paste at the pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            guard Self.now() < deadline else { throw BenchmarkError("the terminal took \(offset) of \(bytes.count) pasted bytes in \(seconds) s") }
            _ = wait(milliseconds: 1, trace: true)
        }
        return sent
    }

    /// The next line of the trace, reading the terminal meanwhile; throws after `seconds`, or when
    /// the program ended.
    func traceLine(within seconds: Double, waitingFor what: @autoclosure () -> String) throws -> String {
        let deadline = Self.now() + UInt64(seconds * 1e9)
        while true {
            if let newline = traceBuffer.firstIndex(of: 10) {
                let line = String(decoding: traceBuffer[..<newline], as: UTF8.self)
                traceBuffer.removeSubrange(...newline)
                return line
            }
            let now = Self.now()
            guard now < deadline else { throw BenchmarkError("reel ui did not answer within \(seconds) s: \(what())") }
            if reap() != nil { throw BenchmarkError("reel ui ended (status \(exited!)) while \(what())") }
            guard wait(milliseconds: Int32(min(50, (deadline - now) / 1_000_000 + 1)), trace: true) else { continue }
        }
    }

    /// Reads the terminal until nothing came for `quiet` milliseconds (or `seconds` passed);
    /// trace lines that came meanwhile are kept for `traceLine`.
    func settle(quiet: Int32, within seconds: Double = 5) {
        let deadline = Self.now() + UInt64(seconds * 1e9)
        while Self.now() < deadline && wait(milliseconds: quiet, trace: true) {}
    }

    /// True when a trace line is waiting unread.
    var hasTraceLine: Bool { traceBuffer.contains(10) }

    /// Waits for the program to end (reading the terminal, and its peak memory every
    /// millisecond, meanwhile): its exit status (128 + signal when killed by one). Kills it
    /// after `seconds`.
    func waitForExit(within seconds: Double) throws -> Int32 {
        let deadline = Self.now() + UInt64(seconds * 1e9)
        while reap() == nil {
            guard Self.now() < deadline else {
                kill()
                throw BenchmarkError("\(pid) did not exit within \(seconds) s")
            }
            samplePeak()
            _ = wait(milliseconds: 1, trace: false)
        }
        while readTerminal() > 0 {}
        return exited!
    }

    /// Reads the program's VmHWM from /proc. Not `wait4`'s ru_maxrss: a child spawned with
    /// `posix_spawn` (vfork) carries this process's peak over its exec, so every child reported
    /// this benchmark's own size.
    func samplePeak() {
        guard exited == nil, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kiB = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { peakKiB = max(peakKiB, kiB) }
        }
    }

    /// SIGKILL, and the zombie reaped; harmless once it ended.
    func kill() {
        guard exited == nil else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exited = 128 + SIGKILL
    }

    /// The child's status once it ended (without waiting).
    private func reap() -> Int32? {
        if let exited { return exited }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        ended = Self.now()
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exited = code
        return code
    }

    /// Polls the terminal (and the trace) up to `milliseconds`, reading what came; false when
    /// nothing did.
    private func wait(milliseconds: Int32, trace: Bool) -> Bool {
        var descriptors = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        if trace && traceEnd >= 0 { descriptors.append(pollfd(fd: traceEnd, events: Int16(POLLIN), revents: 0)) }
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
        var got = readTerminal() > 0
        if descriptors.count > 1 && descriptors[1].revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(traceEnd, $0.baseAddress, $0.count) }
            if n > 0 {
                traceBuffer += chunk[..<n]
                got = true
            }
        }
        // A hang-up with nothing to read (the program closed the terminal) is not news.
        return got
    }

    /// The last two bytes read, for a query split between reads.
    private var tail: [UInt8] = []

    /// Reads what the terminal has, answering each device attributes query; the byte count (0
    /// when nothing, or the slave is closed).
    private func readTerminal() -> Int {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            total += n
            let seen = tail + chunk[..<n]
            let queries = (0..<max(0, seen.count - 2)).filter { seen[$0] == 0x1B && seen[$0 + 1] == 0x5B && seen[$0 + 2] == 0x63 }.count
            for _ in 0..<queries { _ = Array("\u{1B}[?62;22c".utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
            tail = Array(seen.suffix(2))
        }
        outputBytes += total
        return total
    }
}

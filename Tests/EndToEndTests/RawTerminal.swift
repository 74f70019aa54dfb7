import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A program in a pseudo-terminal of its own (a new session, the slave its stdin, stdout and
/// stderr) whose every byte is kept: what a terminal receives, escape sequences and all, which
/// tmux (`TerminalSession`) would interpret or drop. Every wait has a deadline; `deinit` kills
/// the program.
final class RawTerminal {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let pid: pid_t
    private let master: Int32
    private var exited = false
    /// Everything the program wrote so far.
    private(set) var output: [UInt8] = []

    init(_ command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid (glibc applies the attributes first): the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/pts/\(number)", O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | setsid))
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            throw Failure("cannot run \(command[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    deinit {
        if !exited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        close(master)
    }

    /// The output as text (invalid UTF-8 replaced).
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Types `text` at the terminal.
    func type(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(master, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure("cannot type at the pseudo-terminal")
        }
    }

    /// Reads until the output (from byte `from`) contains `text`; throws after `seconds`.
    /// Returns where `text` ended, for the next wait to start from.
    @discardableResult
    func waitFor(_ text: String, from: Int = 0, seconds: Double = 20) throws -> Int {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = Self.find(needle, in: output, from: from) { return end }
            guard Date() < deadline else {
                throw Failure("no \(text.debugDescription) within \(seconds) s in \(self.text.suffix(2000).debugDescription)")
            }
            read(milliseconds: 50)
        }
    }

    /// Reads until nothing came for `quiet` milliseconds.
    func settle(quiet: Int32 = 300) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && read(milliseconds: quiet) {}
    }

    /// Waits (reading) for the program to end: its exit status.
    func waitForExit(seconds: Double = 10) throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            guard Date() < deadline else { throw Failure("\(pid) did not exit within \(seconds) s") }
            read(milliseconds: 20)
        }
        exited = true
        while read(milliseconds: 0) {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// The end of the first `needle` in `haystack` from `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        for start in from...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start + needle.count }
        }
        return nil
    }

    /// Polls up to `milliseconds` and reads what came; false when nothing did.
    @discardableResult
    private func read(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
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


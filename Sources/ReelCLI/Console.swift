import Foundation
import Presentation
import Reel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Standard output and standard error, written with write(2) so that a failed write is seen:
/// Swift's `print` leaves the bytes in stdio's buffer and drops the error when it flushes at exit,
/// and `FileHandle.write(_:)` traps (a `try!` inside Foundation) on a full disk or `/dev/full`.
///
/// Every command writes through here: text lines (made terminal-safe by `TerminalText.output`),
/// raw documents (JSON, exports), and `reel: ` lines on stderr. The first failure to write stdout
/// is kept and stops further writes; `finish()` turns it into one line and exit 74 when the
/// command itself succeeded. A reader that went away (EPIPE: `reel history | head -1`) ends the
/// process quietly by SIGPIPE, as `cat` does.
enum Console {
    private struct State {
        /// errno of the first failed write to stdout.
        var failure: Int32?
        /// What the command changed, for the message when its output is lost.
        var change: String?
    }

    private static let state = Mutex(State())

    /// Run first. SIGPIPE is ignored, so a write to a closed pipe is an EPIPE to act on (SwiftNIO
    /// ignores it too, but only once it opens a socket). A standard descriptor the caller closed
    /// (`reel history >&-`) is opened on /dev/null before anything else is opened: else the next
    /// file opened (the ledger's) would get its number, and output would be written into it. A
    /// closed stdout still fails the command's output, with exit 74.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
            if fd == STDOUT_FILENO { state.withLock { $0.failure = EBADF } }
        }
    }

    /// One line of text output, with the remote or imported text in it made safe for a terminal.
    static func line(_ text: String) {
        Console.text(text + "\n")
    }

    /// Text output as it is, except what is unsafe on a terminal (`TerminalText.output`).
    static func text(_ text: String) {
        write(Array(TerminalText.output(text, keepingStyles: Terminal.styles).utf8))
    }

    /// Bytes to stdout as they are (JSON documents, exports).
    static func write(_ bytes: [UInt8]) {
        guard state.withLock({ $0.failure == nil }) else { return }
        if let error = writeAll(STDOUT_FILENO, bytes) {
            state.withLock { if $0.failure == nil { $0.failure = error } }
        }
    }

    /// `reel: MESSAGE` on stderr, on one line, with anything quoted from elsewhere made safe.
    static func error(_ message: String) {
        _ = writeAll(STDERR_FILENO, Array("reel: \(shortened(TerminalText.field(URLPasswords.hidden(in: message))))\n".utf8))
    }

    /// A message that quotes an argument of thousands of characters keeps its beginning and its
    /// end (where the advice is) and says how much was left out between them.
    static func shortened(_ message: String, limit: Int = 600) -> String {
        guard message.count > limit else { return message }
        let head = message.prefix(limit * 2 / 3), tail = message.suffix(limit / 4)
        return "\(head)…(\(GroupedDigits.of(message.count - head.count - tail.count)) characters left out)…\(tail)"
    }

    /// Bytes to stderr as they are (progress lines, prompts): nothing to do when it fails.
    static func writeError(_ text: String) {
        _ = writeAll(STDERR_FILENO, Array(text.utf8))
    }

    /// Records that the command changed something (`"the change was saved"`): said when the output
    /// that reports it cannot be written.
    static func changed(_ what: String) {
        state.withLock { $0.change = what }
    }

    /// The status to exit with after a command that succeeded: 0, or 74 with one line on stderr
    /// when stdout could not be written. A closed pipe ends the process by SIGPIPE instead.
    static func finish() -> Int32 {
        let (failure, change) = state.withLock { ($0.failure, $0.change) }
        guard let failure else { return ExitStatus.success.rawValue }
        if failure == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        let reason = String(cString: strerror(failure))
        error("cannot write the output: \(reason)" + (change.map { " (\($0))" } ?? ""))
        return ExitStatus.outputFailed.rawValue
    }

    /// Writes all of `bytes` to `fd`; the errno of a failure, else nil. A descriptor left
    /// non-blocking by whoever passed it is waited for, not given up on.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n > 0 {
                    done += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                } else {
                    return n < 0 ? errno : EIO
                }
            }
            return nil
        }
    }
}

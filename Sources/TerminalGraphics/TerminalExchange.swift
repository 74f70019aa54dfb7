#if canImport(Glibc)
import Glibc
#endif

/// One round of questions to a terminal: its input switched out of canonical mode and echo (so
/// answers arrive at once and are not printed), the queries written, the answers read until they
/// are complete or the deadline passes, and the terminal's settings put back as they were —
/// with `TCSANOW`, so nothing typed in the meantime is flushed.
enum TerminalExchange {
    /// The answers, or nil when the input's settings cannot be read (not a terminal after all).
    static func run(
        input: Int32, output: Int32, queries: [UInt8], deadline: AnswerDeadline,
        complete: (ProbeAnswers) -> Bool
    ) -> ProbeAnswers? {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 0
            controls[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        guard writeAll(queries, to: output) else { return ProbeAnswers() }
        var received: [UInt8] = []
        var answers = ProbeAnswers()
        var buffer = [UInt8](repeating: 0, count: 1024)
        // A bound on what is kept: a terminal (or a paste) that floods the input is not an answer.
        while received.count < 65_536 {
            let (wait, isLast) = deadline.nextWait()
            guard wait > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && !isLast { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
            answers = ProbeAnswers.parse(received)
            if complete(answers) { break }
        }
        return answers
    }

    private static func writeAll(_ bytes: [UInt8], to output: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(output, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

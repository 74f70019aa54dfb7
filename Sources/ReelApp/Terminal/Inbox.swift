import Glibc
import Synchronization

/// Where effects' results wait for the app's loop, with a pipe that wakes the loop's `poll`: a
/// zero byte for a message, a signal's number for a signal (written by the shim's handler):
/// SIGWINCH only wakes it, any other ends the app.
final class Inbox: Sendable {
    private let messages = Mutex<[AppMessage]>([])
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(TerminalAppError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .setup("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Queues `message` and wakes the loop (a full pipe is awake already).
    func post(_ message: AppMessage) {
        messages.withLock { $0.append(message) }
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
    }

    /// The messages queued so far, and whether a signal to end came.
    func drain() -> (messages: [AppMessage], signalled: Bool) {
        var signalled = false
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            if bytes[..<n].contains(where: { $0 != 0 && Int32($0) != SIGWINCH }) { signalled = true }
        }
        let taken = messages.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
        return (taken, signalled)
    }
}

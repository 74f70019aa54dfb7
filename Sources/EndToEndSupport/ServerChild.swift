import Foundation
package import Processes
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child that runs until stopped (a server: `fake-tmdb`, `reel serve`) and says it is ready in
/// the first line it prints. Started and waited for through `ChildProcess` (`waitpid`), never
/// Foundation's `Process`, whose `waitUntilExit` was seen to hang on a child long gone, holding
/// one of the concurrency pool's two threads for good and with it the whole run.
package final class ServerChild: Sendable {
    package struct StartFailure: Error, CustomStringConvertible { package let description: String }

    package let child: ChildProcess
    /// The first line it printed, trimmed.
    package let firstLine: String
    /// The read end of its standard output, kept open while it runs (a write to a pipe no one
    /// holds would end it).
    private let output: Int32
    private let ended = Mutex<Termination?>(nil)

    /// Starts `command` with `environment` (this process's when nil), its standard error to the
    /// file `log`, and reads its first line; gives up (and kills it) after `seconds`.
    package init(_ command: [String], environment: [String: String]? = nil, log: String, within seconds: Double) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw StartFailure(description: "cannot make a pipe") }
        // Not inherited by what other threads start meanwhile (the child gets its end by dup2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        output = ends[0]
        do {
            child = try ChildProcess.spawn(command, environment: environment, standardOutput: .descriptor(ends[1]), standardError: .write(log))
        } catch {
            close(ends[0])
            close(ends[1])
            throw StartFailure(description: "cannot start \(command[0]): \(error)")
        }
        close(ends[1])
        firstLine = Self.readLine(ends[0], until: .now + .milliseconds(Int(seconds * 1000)))
    }

    deinit {
        stop()
        close(output)
    }

    /// Whether it still runs (it is reaped once seen to have ended).
    package var isRunning: Bool { termination == nil }

    /// How it ended, once it has.
    package var termination: Termination? {
        ended.withLock { ended in
            if ended == nil { ended = child.poll() }
            return ended
        }
    }

    /// How it ended, waiting for it until `deadline`; `nil` if it still runs then.
    package func termination(by deadline: ContinuousClock.Instant) -> Termination? {
        ended.withLock { ended in
            if ended == nil { ended = child.wait(until: deadline) }
            return ended
        }
    }

    /// `signal` (SIGTERM unless told), then SIGKILL after `patience` seconds; how it ended.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM, patience: Double = 5) -> Termination {
        if let termination { return termination }
        child.signal(signal)
        return ended.withLock { ended in
            if ended == nil { ended = child.wait(until: .now + .milliseconds(Int(patience * 1000))) }
            if ended == nil {
                child.signal(SIGKILL)
                ended = child.wait()
            }
            return ended!
        }
    }

    /// The first line on `descriptor` (what came before the deadline or the end of the output).
    private static func readLine(_ descriptor: Int32, until deadline: ContinuousClock.Instant) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while !line.contains(UInt8(ascii: "\n")) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(1_000, left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
            let polled = poll(&ready, 1, milliseconds)
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { continue }
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Processes

/// Asks the tmux server a program runs under (`TMUX` names its socket, `TMUX_PANE` the pane)
/// whether `allow-passthrough` is on for the pane, and what tmux knows of the terminal it runs
/// in, with one `tmux display-message` bounded by a deadline (a wedged server must not hang the
/// command that wanted to draw a poster).
enum TmuxQuery {
    static func ask(environment: [String: String], deadline: ContinuousClock.Instant) -> CapabilityDecision.TmuxFindings {
        var arguments = ["tmux", "display-message", "-p"]
        if let pane = environment["TMUX_PANE"], pane.hasPrefix("%"), pane.dropFirst().allSatisfy(\.isNumber) {
            arguments += ["-t", pane]
        }
        arguments.append("#{allow-passthrough}\t#{client_termtype}\t#{client_termfeatures}")
        guard let output = run(arguments, environment: environment, deadline: deadline) else {
            return CapabilityDecision.TmuxFindings(passthrough: nil)
        }
        return parse(output)
    }

    /// `1\tkitty(0.35.2)\tRGB,sync,…` (tmux 3.3 prints a flag as 1 or 0; later versions may say
    /// on, off or all).
    static func parse(_ output: String) -> CapabilityDecision.TmuxFindings {
        let line = output.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let passthrough: Bool? =
            switch fields.first ?? "" {
            case "1", "on", "all": true
            case "0", "off": false
            default: nil
            }
        let terminal = fields.count > 1 ? TerminalCapabilities.printable(fields[1]) : ""
        let features = fields.count > 2 ? fields[2].split(separator: ",").map(String.init) : []
        return CapabilityDecision.TmuxFindings(passthrough: passthrough, clientTerminal: terminal.isEmpty ? nil : terminal, clientFeatures: features)
    }

    /// The command's standard output when it exits 0 before the deadline; nil otherwise (then it
    /// is killed).
    private static func run(_ arguments: [String], environment: [String: String], deadline: ContinuousClock.Instant) -> String? {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (reading, writing) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        defer { close(reading) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(arguments, environment: environment, standardOutput: .descriptor(writing))
        } catch {
            close(writing)
            return nil
        }
        close(writing)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        var finished = false
        while output.count < 16_384 {
            let wait = remainingMilliseconds(until: deadline)
            guard wait > 0 else { break }
            var descriptor = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                finished = true
                break
            }
            output += buffer[0..<count]
        }
        // The pipe's end came: the command is ending; it gets until the deadline to.
        guard let ended = finished ? child.wait(until: deadline) : nil else {
            child.signal(SIGKILL)
            _ = child.wait()
            return nil
        }
        return ended == .exited(0) ? String(decoding: output, as: UTF8.self) : nil
    }

    static func remainingMilliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, milliseconds))
    }
}

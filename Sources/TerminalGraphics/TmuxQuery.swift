#if canImport(Glibc)
import Glibc
#endif

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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writing, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeFrom3(&actions)
        // Every signal unblocked: the child must die of the SIGKILL below, whatever this thread blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(writing)
        guard spawned == 0 else { return nil }
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
        var status: Int32 = 0
        var exited = false
        while finished && !exited {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { exited = true; break }
            if reaped < 0 && errno != EINTR { break }
            guard remainingMilliseconds(until: deadline) > 0 else { break }
            usleep(1_000)
        }
        if !exited {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return nil
        }
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    static func remainingMilliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, milliseconds))
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc 2.34), which Swift's Glibc
    /// module does not declare, found at run time: the child gets none of this process's other
    /// descriptors (the terminal, a test runner's pipe).
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Finds out what the terminal can show by asking it, once per process.
///
/// The queries, written together and answered in order: kitty's graphics query (`a=q`, a 1×1
/// image the terminal checks and forgets), XTVERSION (`CSI > 0 q`), the cell size in pixels
/// (`CSI 16 t`), the window size in pixels (`CSI 14 t`), synchronized output (DECRQM
/// `CSI ? 2026 $ p`), and last the primary device attributes (`CSI c`), which every terminal
/// answers: its answer ends the wait, so a terminal that answers takes one round trip, and one
/// that does not costs the timeout (150 ms), never more.
///
/// Nothing is sent when the input or output is not a terminal, when the process is a
/// background job of that terminal, when `TERM=dumb`, or when `REEL_IMAGES=none`. Inside tmux, tmux is asked whether `allow-passthrough` is on: without it
/// pictures are symbols and the kitty query is not sent; with it the kitty query is wrapped so
/// it reaches the terminal tmux runs in (the other queries are tmux's to answer).
///
/// The terminal's input is out of canonical mode and echo only while the answers are read.
/// Keys typed meanwhile are not answers: they are kept for the program (`takeTypedAhead()`).
public enum TerminalProbe {
    private static let shared = Once()

    /// What the terminal can show. The first call asks (up to `timeout`); later calls, whatever
    /// their arguments, return the first call's answer, as a terminal does not change under a
    /// running process. `environment` nil is the process's.
    public static func capabilities(
        input: Int32 = 0, output: Int32 = 1, environment: [String: String]? = nil, timeout: Duration = .milliseconds(150)
    ) -> TerminalCapabilities {
        shared.capabilities(input: input, output: output, environment: environment ?? ProcessInfo.processInfo.environment, timeout: timeout)
    }

    /// The bytes the person typed while the probe listened (they were not answers), in order;
    /// each is returned once. A program reading keys can take them first.
    public static func takeTypedAhead() -> [UInt8] { shared.takeTypedAhead() }

    /// One probe and its answer, kept: the process has one (`shared`); a test makes its own.
    final class Once: Sendable {
        private let state = Mutex<(capabilities: TerminalCapabilities?, typedAhead: [UInt8])>((nil, []))

        /// `answersBy` nil is `timeout` from now on the continuous clock.
        func capabilities(
            input: Int32, output: Int32, environment: [String: String], timeout: Duration, answersBy deadline: AnswerDeadline? = nil
        ) -> TerminalCapabilities {
            // The lock is held while asking: a second caller waits for the first answer.
            state.withLock { state in
                if let capabilities = state.capabilities { return capabilities }
                let (capabilities, typed) = if let deadline {
                    probe(input: input, output: output, environment: environment, timeout: timeout, answersBy: deadline)
                } else {
                    probe(input: input, output: output, environment: environment, timeout: timeout)
                }
                state = (capabilities, state.typedAhead + typed)
                return capabilities
            }
        }

        func takeTypedAhead() -> [UInt8] {
            state.withLock { state in
                defer { state.typedAhead = [] }
                return state.typedAhead
            }
        }
    }

    /// The probe itself, uncached: the capabilities and the bytes typed ahead.
    static func probe(
        input: Int32, output: Int32, environment: [String: String], timeout: Duration
    ) -> (TerminalCapabilities, typedAhead: [UInt8]) {
        probe(input: input, output: output, environment: environment, timeout: timeout, answersBy: .continuous(ContinuousClock.now + timeout))
    }

    /// The probe, waiting for the terminal's answers until `deadline` (`timeout` from its start, as
    /// a program's is; a test's may be on a clock of its own). tmux, a process asked first, gets
    /// half of `timeout` on the continuous clock either way.
    static func probe(
        input: Int32, output: Int32, environment: [String: String], timeout: Duration, answersBy deadline: AnswerDeadline
    ) -> (TerminalCapabilities, typedAhead: [UInt8]) {
        var findings = CapabilityDecision.Findings(environment: environment, timeout: timeout)
        // The foreground process group of the input, when it is this process's controlling
        // terminal (for another terminal, -1: job control does not apply to it).
        let foreground = tcgetpgrp(input)
        findings.notAsked = CapabilityDecision.reasonNotToAsk(
            environment: environment, inputIsTerminal: isatty(input) == 1, outputIsTerminal: isatty(output) == 1,
            inBackground: foreground != -1 && foreground != getpgrp())
        guard findings.notAsked == nil else { return (CapabilityDecision.decide(findings), []) }
        findings.window = windowSize(output) ?? windowSize(input)
        if let socket = environment["TMUX"], !socket.isEmpty {
            // Half the time for tmux; the terminal gets what is left.
            findings.tmux = TmuxQuery.ask(environment: environment, deadline: ContinuousClock.now + timeout / 2)
        }
        let tmux = findings.tmux
        let askKitty = tmux == nil || tmux?.passthrough == true
        var queries: [UInt8] = []
        if askKitty {
            queries += tmux == nil ? Queries.kitty : TerminalSequences.passthrough(Queries.kitty)
        }
        queries += Queries.version + Queries.cellSize + Queries.windowPixels + Queries.synchronizedOutput + Queries.deviceAttributes
        // Inside tmux, tmux answers the device attributes at once, while the kitty answer comes
        // from the terminal behind it, later (if tmux lets it through at all): wait for both.
        let awaitKitty = askKitty && tmux != nil
        let answers = TerminalExchange.run(input: input, output: output, queries: queries, deadline: deadline) { answers in
            answers.deviceAttributes != nil && (!awaitKitty || answers.kitty != nil)
        }
        findings.answers = answers ?? ProbeAnswers()
        if answers == nil { findings.notAsked = "the terminal's settings could not be read, so it was not asked" }
        return (CapabilityDecision.decide(findings), findings.answers.typedAhead + findings.answers.unfinished)
    }

    private static func windowSize(_ descriptor: Int32) -> CapabilityDecision.WindowSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return CapabilityDecision.WindowSize(
            columns: Int(size.ws_col), rows: Int(size.ws_row), pixelWidth: Int(size.ws_xpixel), pixelHeight: Int(size.ws_ypixel))
    }

    /// The queries, as bytes.
    enum Queries {
        /// A 1×1 RGB image sent directly (`t=d`) with the query action (`a=q`): a terminal with
        /// kitty's protocol checks it and answers `ESC _ G i=31;OK ESC \`, storing nothing.
        static let kitty = Array("\u{1B}_Gi=\(ProbeAnswers.kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
        static let version = Array("\u{1B}[>0q".utf8)
        static let cellSize = Array("\u{1B}[16t".utf8)
        static let windowPixels = Array("\u{1B}[14t".utf8)
        static let synchronizedOutput = Array("\u{1B}[?2026$p".utf8)
        static let deviceAttributes = Array("\u{1B}[c".utf8)
    }
}

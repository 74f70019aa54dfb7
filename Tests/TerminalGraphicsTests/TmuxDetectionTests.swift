import Foundation
import ReelTestSupport
import Testing

@testable import TerminalGraphics

/// tmux in between: whether `allow-passthrough` is on is asked of the tmux server `TMUX` names
/// (a private server here); with it on, the kitty query goes out wrapped for the terminal
/// behind tmux; with it off, no graphics query is sent and pictures are symbols.
@Suite struct TmuxDetectionTests {
    static let esc = "\u{1B}"

    private func environment(_ tmux: TerminalSession, pane: String? = nil) async throws -> [String: String] {
        var environment = ["TERM": "tmux-256color", "TMUX": try await tmux.environmentValue(), "PATH": "/usr/bin:/bin:/usr/local/bin"]
        environment["TMUX_PANE"] = pane
        return environment
    }

    /// Long enough for any tmux to answer, however busy the machine: a bound on a hang, not a timing.
    static let patience = Duration.seconds(60)

    @Test func passthroughIsAskedOfTheServerTMUXNames() async throws {
        let tmux = try await TerminalSession(shell: "sleep 60")
        let deadline = { ContinuousClock.now + Self.patience }
        let plain = try await environment(tmux)
        #expect(TmuxQuery.ask(environment: plain, deadline: deadline()).passthrough == false)
        try await tmux.run(["set-option", "-g", "allow-passthrough", "on"])
        #expect(TmuxQuery.ask(environment: plain, deadline: deadline()).passthrough == true)
        // A pane's own setting wins over the global one, for the pane TMUX_PANE names.
        try await tmux.run(["split-window", "-d", "sleep 60"])
        try await tmux.run(["set-option", "-p", "-t", "%1", "allow-passthrough", "off"])
        let (first, second) = (try await environment(tmux, pane: "%0"), try await environment(tmux, pane: "%1"))
        #expect(TmuxQuery.ask(environment: second, deadline: deadline()).passthrough == false)
        #expect(TmuxQuery.ask(environment: first, deadline: deadline()).passthrough == true)
    }

    @Test func aTmuxThatCannotBeAskedIsNoPassthrough() {
        let findings = TmuxQuery.ask(
            environment: ["TMUX": "/nonexistent/reel-no-such-socket,1,0", "PATH": "/usr/bin:/bin"], deadline: ContinuousClock.now + Self.patience)
        #expect(findings.passthrough == nil)
        let capabilities = CapabilityDecision.decide(
            .init(environment: ["TERM": "tmux-256color", "TMUX": "x"], answers: ProbeAnswers.parse(Array("\(Self.esc)[?1;2c".utf8)), tmux: findings))
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.tmux == TmuxPassthrough(passthrough: false))
        #expect(capabilities.reason == "symbols, 256 colours (tmux did not say whether allow-passthrough is on)")
    }

    @Test func tmuxsAnswerIsParsed() {
        let findings = TmuxQuery.parse("1\tkitty(0.35.2)\t256,RGB,sync,title\n")
        #expect(findings == .init(passthrough: true, clientTerminal: "kitty(0.35.2)", clientFeatures: ["256", "RGB", "sync", "title"]))
        #expect(TmuxQuery.parse("0\t\t\n") == .init(passthrough: false))
        #expect(TmuxQuery.parse("all\t\u{1B}]evil\u{07}\t\n").clientTerminal == "]evil")
        #expect(TmuxQuery.parse("").passthrough == nil)
    }

    /// The probe in a pane of a tmux with passthrough: the kitty query is wrapped for the
    /// terminal behind tmux, and its answer makes it kitty through tmux. (The probe's timeout is
    /// long: tmux, asked first, gets half of it on the continuous clock; the terminal's answers
    /// are waited for on the test's clock.)
    @Test func withPassthroughTheKittyQueryIsWrappedAndItsAnswerCounts() async throws {
        let tmux = try await TerminalSession(shell: "sleep 60")
        try await tmux.run(["set-option", "-g", "allow-passthrough", "on"])
        let terminal = try FakeTerminal()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: try await environment(tmux, pane: "%0"), timeout: Self.patience * 2)
        let queries = String(decoding: try terminal.readQueries(), as: UTF8.self)
        #expect(queries.hasPrefix("\(Self.esc)Ptmux;\(Self.esc)\(Self.esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(Self.esc)\(Self.esc)\\\(Self.esc)\\"))
        // tmux answers the device attributes; the terminal behind it, kitty's query.
        terminal.send("\(Self.esc)P>|tmux 3.3a\(Self.esc)\\\(Self.esc)[?1;2c\(Self.esc)_Gi=31;OK\(Self.esc)\\")
        let capabilities = try run.result().capabilities
        #expect(capabilities.mode == .kitty)
        #expect(capabilities.tmux == TmuxPassthrough(passthrough: true))
        #expect(capabilities.reason == "kitty graphics (the terminal answered the kitty query through tmux passthrough)")
    }

    /// Passthrough on, and the terminal behind tmux does not answer kitty's query: the probe
    /// waits for it to the timeout (tmux's own answers come at once), then settles for symbols.
    /// On the probe's clock (the test's): tmux's answers in, a millisecond before the timeout it
    /// still waits, and at the timeout it returns without the clock moving on.
    @Test func withPassthroughAndNoKittyAnswerItWaitsTheTimeoutOnly() async throws {
        let tmux = try await TerminalSession(shell: "sleep 60")
        try await tmux.run(["set-option", "-g", "allow-passthrough", "on"])
        let terminal = try FakeTerminal()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: try await environment(tmux, pane: "%0"), timeout: Self.patience * 2)
        _ = try terminal.readQueries()
        terminal.send("\(Self.esc)P>|tmux 3.3a\(Self.esc)\\\(Self.esc)[?1;2c")
        try await TerminalProbeTests.expectWaitingUntilTheTimeout(run)
        let (capabilities, _) = try await run.finished()
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.terminalName == "tmux 3.3a")
        #expect(capabilities.reason == "symbols, 256 colours (the terminal behind tmux offered no graphics)")
    }

    @Test func withoutPassthroughNoGraphicsQueryIsSent() async throws {
        let tmux = try await TerminalSession(shell: "sleep 60")
        let terminal = try FakeTerminal()
        var environment = try await environment(tmux, pane: "%0")
        environment["COLORTERM"] = "truecolor"
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: environment, timeout: Self.patience * 2)
        let queries = String(decoding: try terminal.readQueries(), as: UTF8.self)
        #expect(!queries.contains("_G"))
        #expect(!queries.contains("tmux;"))
        terminal.send("\(Self.esc)P>|tmux 3.3a\(Self.esc)\\\(Self.esc)[?1;2c")
        let capabilities = try run.result().capabilities
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.tmux == TmuxPassthrough(passthrough: false))
        #expect(capabilities.reason == "symbols, truecolor (tmux without allow-passthrough)")
    }
}

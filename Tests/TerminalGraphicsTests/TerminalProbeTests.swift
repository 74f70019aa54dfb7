import Foundation
import ReelTestSupport
import Testing

@testable import TerminalGraphics

#if canImport(Glibc)
import Glibc
#endif

/// The probe against a fake terminal (a pty the test answers through), as kitty, as a sixel
/// terminal, as neither, and as a terminal that never answers.
@Suite struct TerminalProbeTests {
    static let esc = "\u{1B}"
    /// What a plain xterm-like session has in its environment; no TMUX, whatever the test runs in.
    static let environment = ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"]

    /// The queries, in order, with the device attributes last.
    @Test func theQueriesAreSentInOrderWithDeviceAttributesLast() throws {
        let terminal = try FakeTerminal()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: Self.environment)
        let queries = String(decoding: try terminal.readQueries(), as: UTF8.self)
        terminal.send("\(Self.esc)[?1;2c")
        _ = try run.result()
        let expected = [
            "\(Self.esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(Self.esc)\\", "\(Self.esc)[>0q", "\(Self.esc)[16t", "\(Self.esc)[14t",
            "\(Self.esc)[?2026$p", "\(Self.esc)[c",
        ]
        #expect(queries == expected.joined())
    }

    @Test func answeredAsKitty() throws {
        let terminal = try FakeTerminal()
        let modesBefore = terminal.localModes()
        // The timeout never passes (the probe's clock is the test's, never moved): the answer to
        // the device attributes ends the wait.
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: Self.environment, timeout: .seconds(5))
        _ = try terminal.readQueries()
        // Raw mode while the probe listens.
        #expect(terminal.localModes() & tcflag_t(ICANON | ECHO) == 0)
        terminal.send(
            "\(Self.esc)_Gi=31;OK\(Self.esc)\\\(Self.esc)P>|kitty(0.35.2)\(Self.esc)\\\(Self.esc)[6;21;10t\(Self.esc)[4;1050;800t"
                + "\(Self.esc)[?2026;2$y\(Self.esc)[?62;22;52c")
        let (capabilities, typed) = try run.result()
        #expect(capabilities.mode == .kitty)
        #expect(capabilities.colours == .truecolor)
        #expect(capabilities.cellSize == CellSize(width: 10, height: 21))
        #expect(capabilities.synchronizedOutput)
        #expect(capabilities.terminalName == "kitty(0.35.2)")
        #expect(capabilities.tmux == nil)
        #expect(capabilities.reason == "kitty graphics (the terminal answered the kitty query)")
        #expect(typed.isEmpty)
        #expect(terminal.localModes() == modesBefore)
    }

    @Test func answeredAsASixelTerminal() throws {
        let terminal = try FakeTerminal()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: Self.environment)
        _ = try terminal.readQueries()
        terminal.send("\(Self.esc)P>|XTerm(390)\(Self.esc)\\\(Self.esc)[6;20;9t\(Self.esc)[?2026;0$y\(Self.esc)[?63;1;2;4;6;9;15;22c")
        let (capabilities, _) = try run.result()
        #expect(capabilities.mode == .sixel)
        #expect(capabilities.cellSize == CellSize(width: 9, height: 20))
        #expect(!capabilities.synchronizedOutput)
        #expect(capabilities.colours == .indexed256)
        #expect(capabilities.reason == "sixel (the terminal's device attributes include 4)")
    }

    @Test func answeredAsNeither() throws {
        let terminal = try FakeTerminal(columns: 100, rows: 50)
        var environment = Self.environment
        environment["COLORTERM"] = "truecolor"
        environment["KITTY_WINDOW_ID"] = "1"
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: environment)
        _ = try terminal.readQueries()
        // The cell size from the window's pixels (CSI 14 t) and its cells (100×50).
        terminal.send("\(Self.esc)[4;1000;1000t\(Self.esc)[?1;2c")
        let (capabilities, _) = try run.result()
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.colours == .truecolor)
        #expect(capabilities.cellSize == CellSize(width: 10, height: 20))
        // KITTY_WINDOW_ID only nominated; the terminal did not answer kitty's query.
        #expect(
            capabilities.reason
                == "symbols, truecolor (the terminal offered no graphics; KITTY_WINDOW_ID names kitty, but the terminal did not answer the kitty query)")
    }

    /// On the probe's clock (the test's): a millisecond before the timeout it still waits, and
    /// at the timeout it returns without the clock moving on.
    @Test func aTerminalThatNeverAnswersCostsTheTimeoutAndNoMore() async throws {
        let terminal = try FakeTerminal(columns: 80, rows: 24, pixelWidth: 800, pixelHeight: 480)
        let modesBefore = terminal.localModes()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: Self.environment)
        _ = try terminal.readQueries()
        try await Self.expectWaitingUntilTheTimeout(run)
        let (capabilities, _) = try await run.finished()
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.reason == "symbols, 256 colours (the terminal did not answer within 150 ms)")
        // The window's pixels from TIOCGWINSZ, as the terminal set them.
        #expect(capabilities.cellSize == CellSize(width: 10, height: 20))
        #expect(terminal.localModes() == modesBefore)
    }

    /// Moves `run`'s clock to a millisecond before its timeout, sees the probe look at it and wait
    /// on, then moves it to the timeout.
    static func expectWaitingUntilTheTimeout(_ run: ProbeRun) async throws {
        run.expire(before: .milliseconds(1))
        let looks = run.looks
        // The second look after the move saw the moved clock, and the probe waited again.
        try await waitFor("the probe to look at its clock again") { run.looks >= looks + 2 }
        #expect(!run.hasReturned, "it stopped waiting before its timeout")
        run.expire()
    }

    @Test func keysTypedWhileTheProbeListensAreHandedBack() throws {
        let terminal = try FakeTerminal()
        let run = ProbeRun(input: terminal.slave, output: terminal.slave, environment: Self.environment)
        _ = try terminal.readQueries()
        terminal.send("ls -l\(Self.esc)[A\(Self.esc)[?62;4c")
        let (capabilities, typed) = try run.result()
        #expect(capabilities.mode == .sixel)
        #expect(typed == Array("ls -l\(Self.esc)[A".utf8))
    }

    @Test func iTermNamedByTheTerminalOrNominatedAndAnswered() throws {
        let wezterm = try FakeTerminal()
        let first = ProbeRun(input: wezterm.slave, output: wezterm.slave, environment: Self.environment)
        _ = try wezterm.readQueries()
        wezterm.send("\(Self.esc)P>|WezTerm 20240203-110809-5046fc22\(Self.esc)\\\(Self.esc)[?65;4;6;18;22c")
        let named = try first.result().capabilities
        #expect(named.mode == .iterm)
        #expect(named.reason == "iTerm2 inline images (the terminal says it is WezTerm 20240203-110809-5046fc22)")

        var environment = Self.environment
        environment["TERM_PROGRAM"] = "iTerm.app"
        let iterm = try FakeTerminal()
        let second = ProbeRun(input: iterm.slave, output: iterm.slave, environment: environment)
        _ = try iterm.readQueries()
        iterm.send("\(Self.esc)[?62;22c")
        let nominated = try second.result().capabilities
        #expect(nominated.mode == .iterm)
        #expect(nominated.reason == "iTerm2 inline images (TERM_PROGRAM=iTerm.app and the terminal answered)")

        // The same nomination from a terminal that does not answer (an ssh session elsewhere).
        let silent = try FakeTerminal()
        let third = ProbeRun(input: silent.slave, output: silent.slave, environment: environment)
        _ = try silent.readQueries()
        third.expire()
        #expect(try third.result().capabilities.mode == .symbols)
    }

    @Test func inputThatIsNotATerminalIsNeverAsked() throws {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { for descriptor in input + output { close(descriptor) } }
        let (capabilities, typed) = TerminalProbe.probe(
            input: input[0], output: output[1], environment: Self.environment, timeout: .milliseconds(150))
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.reason == "symbols, 256 colours (input is not a terminal, so it was not asked)")
        #expect(typed.isEmpty)
        // Nothing was written.
        _ = fcntl(output[0], F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(read(output[0], &byte, 1) == -1 && errno == EAGAIN)
    }

    @Test func aTerminalIsNotAskedWhenPicturesAreOffOrItIsDumb() throws {
        let terminal = try FakeTerminal()
        for (environment, mode, reason) in [
            (["TERM": "xterm-256color", "REEL_IMAGES": "none"], GraphicsMode.none, "none (REEL_IMAGES=none)"),
            (["TERM": "dumb"], GraphicsMode.none, "none (TERM=dumb)"),
        ] {
            let (capabilities, _) = TerminalProbe.probe(
                input: terminal.slave, output: terminal.slave, environment: environment, timeout: .milliseconds(150))
            #expect(capabilities.mode == mode)
            #expect(capabilities.reason == reason)
        }
        #expect(try terminal.written().isEmpty)
    }

    /// The cached entry point asks once: a second call, even with another terminal, returns the
    /// first answer without writing a query; keys typed during the first are handed back once.
    @Test func capabilitiesAreAskedOncePerProcess() async throws {
        let first = try FakeTerminal()
        let second = try FakeTerminal()
        let once = TerminalProbe.Once()
        let environment = Self.environment
        let box = ProbeRun.Box()
        let slave = first.slave
        // On a clock of the test's, never moved: the answer, however late, ends the wait.
        let clock = ManualClock()
        let answersBy = AnswerDeadline.on(clock, at: clock.now.advanced(by: .milliseconds(150)))
        Thread.detachNewThread {
            box.set(once.capabilities(input: slave, output: slave, environment: environment, timeout: .milliseconds(150), answersBy: answersBy))
        }
        _ = try first.readQueries()
        first.send("q\(Self.esc)[?62;4c")
        try await waitFor("the first probe to return") { box.get() != nil }
        let answered = try #require(box.get())
        #expect(answered.mode == .sixel)
        let again = once.capabilities(input: second.slave, output: second.slave, environment: ["TERM": "dumb"], timeout: .milliseconds(150))
        #expect(again == answered)
        #expect(try second.written().isEmpty)
        #expect(once.takeTypedAhead() == [UInt8(ascii: "q")])
        #expect(once.takeTypedAhead().isEmpty)
    }
}

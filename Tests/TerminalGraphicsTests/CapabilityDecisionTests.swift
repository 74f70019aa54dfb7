import Testing

@testable import TerminalGraphics

/// The rules that turn what the probe found into a mode, colours and a reason.
@Suite struct CapabilityDecisionTests {
    static let esc = "\u{1B}"

    private func decide(
        _ environment: [String: String], answers: String = "", tmux: CapabilityDecision.TmuxFindings? = nil, notAsked: String? = nil
    ) -> TerminalCapabilities {
        CapabilityDecision.decide(
            .init(environment: environment, notAsked: notAsked, answers: ProbeAnswers.parse(Array(answers.utf8)), tmux: tmux))
    }

    @Test func theOrderIsKittyThenITermThenSixelThenSymbols() {
        let everything = "\(Self.esc)_Gi=31;OK\(Self.esc)\\\(Self.esc)P>|WezTerm 2024\(Self.esc)\\\(Self.esc)[?62;4c"
        #expect(decide(["TERM": "xterm-256color"], answers: everything).mode == .kitty)
        let notKitty = "\(Self.esc)P>|WezTerm 2024\(Self.esc)\\\(Self.esc)[?62;4c"
        #expect(decide(["TERM": "xterm-256color"], answers: notKitty).mode == .iterm)
        #expect(decide(["TERM": "xterm-256color"], answers: "\(Self.esc)[?62;4c").mode == .sixel)
        #expect(decide(["TERM": "xterm-256color"], answers: "\(Self.esc)[?62c").mode == .symbols)
    }

    @Test func reelImagesOverridesAndAnUnknownValueIsSaidAndIgnored() {
        let sixel = "\(Self.esc)[?62;4c"
        for (value, mode) in [("kitty", GraphicsMode.kitty), ("iterm", .iterm), ("sixel", .sixel), ("symbols", .symbols), ("none", .none)] {
            let capabilities = decide(["TERM": "xterm-256color", "REEL_IMAGES": value], answers: sixel)
            #expect(capabilities.mode == mode)
            #expect(capabilities.reason.hasSuffix("(REEL_IMAGES=\(value))"))
        }
        let unknown = decide(["TERM": "xterm-256color", "REEL_IMAGES": "blocks"], answers: sixel)
        #expect(unknown.mode == .sixel)
        #expect(unknown.reason == "sixel (the terminal's device attributes include 4; REEL_IMAGES=blocks is unknown and was ignored)")
    }

    @Test func whenNotToAsk() {
        let plain = ["TERM": "xterm-256color"]
        #expect(CapabilityDecision.reasonNotToAsk(environment: plain, inputIsTerminal: true, outputIsTerminal: true) == nil)
        #expect(CapabilityDecision.reasonNotToAsk(environment: plain, inputIsTerminal: true, outputIsTerminal: false)
            == "output is not a terminal, so it was not asked")
        #expect(CapabilityDecision.reasonNotToAsk(environment: plain, inputIsTerminal: true, outputIsTerminal: true, inBackground: true)
            == "running in the background, so the terminal was not asked")
        #expect(CapabilityDecision.reasonNotToAsk(environment: ["TERM": "xterm", "REEL_IMAGES": "NONE"], inputIsTerminal: true, outputIsTerminal: true)
            == "REEL_IMAGES=NONE")
        // A hostile value reaches the reason without its control characters.
        let hostile = decide(["TERM": "xterm", "REEL_IMAGES": "\u{1B}]0;pwned\u{07}"])
        #expect(hostile.reason == "symbols, 16 colours (the terminal did not answer within 150 ms; REEL_IMAGES=]0;pwned is unknown and was ignored)")
    }

    @Test func aDumbTerminalDrawsNothingUnlessTold() {
        #expect(decide(["TERM": "dumb"]).reason == "none (TERM=dumb)")
        #expect(decide(["TERM": "dumb", "REEL_IMAGES": "symbols"]).mode == .symbols)
    }

    @Test func theEnvironmentOnlyNominates() {
        // kitty's variables without kitty's answer: symbols, and the reason says why.
        let unanswered = decide(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "3"], answers: "\(Self.esc)[?62c")
        #expect(unanswered.mode == .symbols)
        #expect(unanswered.reason.contains("KITTY_WINDOW_ID names kitty, but the terminal did not answer the kitty query"))
        // iTerm2 nominated, and the terminal answered something: iTerm2.
        #expect(decide(["LC_TERMINAL": "iTerm2"], answers: "\(Self.esc)[?62c").mode == .iterm)
        // Nominated, and nothing answered (not iTerm2 at the other end of this ssh): symbols.
        #expect(decide(["LC_TERMINAL": "iTerm2"]).mode == .symbols)
        #expect(decide(["TERM_PROGRAM": "vscode"], answers: "\(Self.esc)[?62c").mode == .symbols)
    }

    @Test func kittysErrorIsNotKitty() {
        let capabilities = decide(["TERM": "xterm-256color"], answers: "\(Self.esc)_Gi=31;EINVAL:bad\(Self.esc)\\\(Self.esc)[?62c")
        #expect(capabilities.mode == .symbols)
        #expect(capabilities.reason == "symbols, 256 colours (the terminal answered the kitty query with an error: EINVAL:bad)")
    }

    @Test func coloursForSymbols() {
        #expect(decide(["TERM": "xterm", "COLORTERM": "truecolor"]).colours == .truecolor)
        #expect(decide(["TERM": "xterm", "COLORTERM": "24bit"]).colours == .truecolor)
        #expect(decide(["TERM": "screen-256color"]).colours == .indexed256)
        #expect(decide(["TERM": "xterm"]).colours == .indexed16)
        #expect(decide([:]).colours == .indexed16)
        // A terminal that names itself as one with truecolor.
        #expect(decide(["TERM": "xterm"], answers: "\(Self.esc)P>|WezTerm 2024\(Self.esc)\\").colours == .truecolor)
        // Through tmux: what tmux knows of the terminal it runs in.
        let tmux = CapabilityDecision.TmuxFindings(passthrough: false, clientTerminal: nil, clientFeatures: ["256", "RGB"])
        #expect(decide(["TERM": "tmux-256color"], tmux: tmux).colours == .truecolor)
        #expect(decide(["TERM": "xterm"]).reason == "symbols, 16 colours (the terminal did not answer within 150 ms)")
    }

    @Test func insideTmuxTheTerminalBehindItIsNamedByTmux() {
        let tmux = CapabilityDecision.TmuxFindings(passthrough: true, clientTerminal: "kitty(0.35.2)", clientFeatures: [])
        // tmux kept kitty's answer; its name, from tmux's XTVERSION query, stands.
        let capabilities = decide(["TERM": "tmux-256color"], answers: "\(Self.esc)P>|tmux 3.3a\(Self.esc)\\\(Self.esc)[?1;2c", tmux: tmux)
        #expect(capabilities.mode == .kitty)
        #expect(capabilities.terminalName == "kitty(0.35.2)")
        #expect(capabilities.reason == "kitty graphics (tmux runs in kitty(0.35.2))")
        // The same without passthrough: symbols.
        let closed = CapabilityDecision.TmuxFindings(passthrough: false, clientTerminal: "kitty(0.35.2)", clientFeatures: [])
        #expect(decide(["TERM": "tmux-256color"], answers: "\(Self.esc)[?1;2c", tmux: closed).reason
            == "symbols, truecolor (tmux without allow-passthrough)")
    }

    @Test func cellSizeFromTheAnswersOrTheWindow() {
        var findings = CapabilityDecision.Findings(environment: [:])
        findings.window = .init(columns: 100, rows: 40, pixelWidth: 900, pixelHeight: 760)
        #expect(CapabilityDecision.decide(findings).cellSize == CellSize(width: 9, height: 19))
        findings.answers = ProbeAnswers.parse(Array("\(Self.esc)[4;800;1000t".utf8))
        #expect(CapabilityDecision.decide(findings).cellSize == CellSize(width: 10, height: 20))
        findings.answers = ProbeAnswers.parse(Array("\(Self.esc)[4;800;1000t\(Self.esc)[6;17;8t".utf8))
        #expect(CapabilityDecision.decide(findings).cellSize == CellSize(width: 8, height: 17))
        findings.answers = ProbeAnswers()
        findings.window = .init(columns: 100, rows: 40, pixelWidth: 0, pixelHeight: 0)
        #expect(CapabilityDecision.decide(findings).cellSize == nil)
    }

    @Test func theSummaryIsOneLineOfEverything() {
        let capabilities = TerminalCapabilities(
            mode: .kitty, colours: .truecolor, cellSize: CellSize(width: 10, height: 21), tmux: TmuxPassthrough(passthrough: true),
            synchronizedOutput: true, terminalName: "kitty(0.35.2)\u{1B}[31m", reason: "kitty graphics (the terminal answered the kitty query)")
        #expect(
            capabilities.summary
                == "images: kitty graphics (the terminal answered the kitty query); truecolor; cells 10×21 px; synchronized output; tmux with allow-passthrough; terminal kitty(0.35.2)[31m")
        #expect(TerminalCapabilities.noPictures(reason: "standard output is not a terminal").summary
            == "images: none (standard output is not a terminal); 16 colours; cell size unknown (assuming 10×20 px)")
    }
}

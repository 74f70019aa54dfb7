/// How `TerminalProbe` turns what it found out into `TerminalCapabilities`: a pure function, so
/// every rule (the order kitty, iTerm2, sixel, symbols; what the environment may nominate; tmux;
/// `REEL_IMAGES`) is tested without a terminal.
///
/// Environment variables only nominate: `KITTY_WINDOW_ID` or `TERM_PROGRAM=WezTerm` survive an
/// `ssh` or a `sudo` into a terminal that is not that one, so a graphics mode needs the terminal's
/// own answer (kitty's query answered OK, XTVERSION naming the terminal, a 4 among the device
/// attributes). An environment nomination of iTerm2 counts only when the terminal answered at all.
enum CapabilityDecision {
    /// What the probe found out.
    struct Findings: Sendable {
        var environment: [String: String]
        /// Why the terminal was not asked; nil when it was.
        var notAsked: String?
        var answers = ProbeAnswers()
        /// Nil outside tmux.
        var tmux: TmuxFindings?
        /// The window from `TIOCGWINSZ`: cells and (when the terminal sets them) pixels.
        var window: WindowSize?
        var timeout: Duration = .milliseconds(150)
    }

    /// What tmux said about the pane: `allow-passthrough` (nil when tmux could not be asked), and
    /// the terminal tmux runs in as tmux learned it (its XTVERSION answer and features).
    struct TmuxFindings: Equatable, Sendable {
        var passthrough: Bool?
        var clientTerminal: String?
        var clientFeatures: [String] = []
    }

    struct WindowSize: Equatable, Sendable {
        var columns: Int
        var rows: Int
        var pixelWidth: Int
        var pixelHeight: Int
    }

    /// Why not to send the queries at all, or nil to send them. A background job (`reel show … &`)
    /// does not ask: touching its controlling terminal's settings or reading from it would stop
    /// it (SIGTTOU, SIGTTIN), and the answers would go to the foreground job.
    static func reasonNotToAsk(
        environment: [String: String], inputIsTerminal: Bool, outputIsTerminal: Bool, inBackground: Bool = false
    ) -> String? {
        if let value = environment["REEL_IMAGES"], GraphicsMode(override: value) == GraphicsMode.none { return "REEL_IMAGES=\(value)" }
        if environment["TERM"] == "dumb" { return "TERM=dumb" }
        if !inputIsTerminal { return "input is not a terminal, so it was not asked" }
        if !outputIsTerminal { return "output is not a terminal, so it was not asked" }
        if inBackground { return "running in the background, so the terminal was not asked" }
        return nil
    }

    static func decide(_ findings: Findings) -> TerminalCapabilities {
        let environment = findings.environment
        var notes: [String] = []
        var override: GraphicsMode?
        if let value = environment["REEL_IMAGES"], !value.isEmpty {
            if let mode = GraphicsMode(override: value) {
                override = mode
            } else {
                notes.append("REEL_IMAGES=\(value) is unknown and was ignored")
            }
        }
        let found = detect(findings)
        if let note = found.note { notes.append(note) }
        let mode = override ?? found.mode
        let why = override.map { _ in "REEL_IMAGES=\(environment["REEL_IMAGES"] ?? "")" } ?? found.why
        let colours = colourDepth(findings, found: found.mode)
        let heading = mode == .symbols ? "\(mode.label), \(colours.label)" : mode.label
        let reason = "\(heading) (\(([why] + notes).joined(separator: "; ")))"
        return TerminalCapabilities(
            mode: mode, colours: colours, cellSize: cellSize(findings),
            tmux: findings.tmux.map { TmuxPassthrough(passthrough: $0.passthrough ?? false) },
            synchronizedOutput: [1, 2].contains(findings.answers.synchronizedOutput ?? 0),
            terminalName: terminalName(findings), reason: reason)
    }

    /// The mode the terminal's answers call for, why, and a note on a nomination not taken up.
    private static func detect(_ findings: Findings) -> (mode: GraphicsMode, why: String, note: String?) {
        let answers = findings.answers
        let environment = findings.environment
        if environment["TERM"] == "dumb" { return (.none, "TERM=dumb", nil) }
        if let notAsked = findings.notAsked { return (.symbols, notAsked, nil) }
        let name = terminalName(findings)?.lowercased() ?? ""
        if let tmux = findings.tmux {
            guard tmux.passthrough == true else {
                let why = tmux.passthrough == nil ? "tmux did not say whether allow-passthrough is on" : "tmux without allow-passthrough"
                return (.symbols, why, nil)
            }
            if answers.kitty == .ok { return (.kitty, "the terminal answered the kitty query through tmux passthrough", nil) }
            // tmux may keep the terminal's answer to itself; its name, which tmux asked, is the
            // terminal's own word too.
            if ["kitty", "ghostty"].contains(where: name.contains) {
                return (.kitty, "tmux runs in \(terminalName(findings) ?? "")", nil)
            }
        } else if answers.kitty == .ok {
            return (.kitty, "the terminal answered the kitty query", nil)
        }
        if ["iterm2", "wezterm", "mintty"].contains(where: name.contains) {
            return (.iterm, "the terminal says it is \(terminalName(findings) ?? "")", nil)
        }
        if answers.answeredAnything, let nominee = iTermNomination(environment) {
            return (.iterm, "\(nominee) and the terminal answered", nil)
        }
        // Inside tmux the device attributes are tmux's own: a 4 there means tmux draws sixel.
        if answers.hasSixel { return (.sixel, "the terminal's device attributes include 4", nil) }
        let note = kittyNomination(environment).map { "\($0) names kitty, but the terminal did not answer the kitty query" }
        if case .error(let message) = answers.kitty {
            return (.symbols, "the terminal answered the kitty query with an error: \(message)", note)
        }
        if !answers.answeredAnything {
            return (.symbols, "the terminal did not answer within \(milliseconds(findings.timeout)) ms", note)
        }
        return (.symbols, findings.tmux == nil ? "the terminal offered no graphics" : "the terminal behind tmux offered no graphics", note)
    }

    private static func iTermNomination(_ environment: [String: String]) -> String? {
        if environment["TERM_PROGRAM"] == "iTerm.app" { return "TERM_PROGRAM=iTerm.app" }
        if environment["LC_TERMINAL"] == "iTerm2" { return "LC_TERMINAL=iTerm2" }
        if environment["TERM_PROGRAM"] == "WezTerm" { return "TERM_PROGRAM=WezTerm" }
        if environment["WEZTERM_PANE"] != nil { return "WEZTERM_PANE" }
        return nil
    }

    private static func kittyNomination(_ environment: [String: String]) -> String? {
        if environment["KITTY_WINDOW_ID"] != nil { return "KITTY_WINDOW_ID" }
        if environment["TERM"] == "xterm-kitty" { return "TERM=xterm-kitty" }
        if environment["KONSOLE_VERSION"] != nil { return "KONSOLE_VERSION" }
        return nil
    }

    /// Truecolor for a terminal that said it is one known to have it (or drew graphics), else
    /// the environment's word: `COLORTERM`, then a `TERM` with 256 colours, else 16.
    private static func colourDepth(_ findings: Findings, found: GraphicsMode) -> ColourDepth {
        let environment = findings.environment
        let name = terminalName(findings)?.lowercased() ?? ""
        if found == .kitty || found == .iterm { return .truecolor }
        if ["kitty", "iterm2", "wezterm", "ghostty"].contains(where: name.contains) { return .truecolor }
        if findings.tmux?.clientFeatures.contains("RGB") == true { return .truecolor }
        if let colourTerm = environment["COLORTERM"]?.lowercased(), colourTerm == "truecolor" || colourTerm == "24bit" { return .truecolor }
        if environment["TERM"]?.contains("256color") == true { return .indexed256 }
        return .indexed16
    }

    /// `CSI 16 t`; else `CSI 14 t` divided by the window's cells; else the window's pixels from
    /// `TIOCGWINSZ` divided by its cells; else unknown.
    private static func cellSize(_ findings: Findings) -> CellSize? {
        if let cell = findings.answers.cellPixels { return cell }
        guard let window = findings.window, window.columns > 0, window.rows > 0 else { return nil }
        if let pixels = findings.answers.windowPixels {
            return CellSize(width: pixels.width / window.columns, height: pixels.height / window.rows)
        }
        return CellSize(width: window.pixelWidth / window.columns, height: window.pixelHeight / window.rows)
    }

    /// Inside tmux, the terminal tmux runs in (XTVERSION would name tmux); else XTVERSION.
    private static func terminalName(_ findings: Findings) -> String? {
        if let outer = findings.tmux?.clientTerminal, !outer.isEmpty { return TerminalCapabilities.printable(outer) }
        return findings.answers.version
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

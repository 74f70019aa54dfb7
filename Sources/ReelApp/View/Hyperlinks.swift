/// Terminal hyperlinks (OSC 8): which URLs may become one, and which terminals show them. A
/// linked text keeps its URL visible, so where links are not shown nothing is lost.
public enum Hyperlinks {
    /// The longest URL made a link (the OSC 8 convention's 2083 bytes, rounded down).
    static let longestURL = 2048

    /// `url` when it may go inside an OSC 8 sequence: printable ASCII only, without spaces or a
    /// backslash (so no ESC, BEL or string terminator can end the sequence early); nil otherwise,
    /// and the text is shown without a link.
    public static func safe(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard !bytes.isEmpty, bytes.count <= longestURL,
            bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") })
        else { return nil }
        return url
    }

    /// Whether the terminal this environment describes shows OSC 8 links. `REEL_HYPERLINKS=1` or
    /// `0` decides; otherwise none for `TERM=dumb` or with `NO_HYPERLINKS` set; inside tmux only
    /// from tmux 3.4 (older ones drop the sequence); else yes for terminals known to show them:
    /// iTerm2, WezTerm, VS Code, Ghostty, Hyper (`TERM_PROGRAM`), VTE 0.50 or newer (GNOME
    /// Terminal and others, `VTE_VERSION` ≥ 5000), kitty, Windows Terminal, foot and Alacritty.
    public static func supported(environment: [String: String]) -> Bool {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        switch value("REEL_HYPERLINKS") {
        case "1"?: return true
        case "0"?: return false
        default: break
        }
        let term = value("TERM") ?? ""
        if term == "dumb" || value("NO_HYPERLINKS") != nil { return false }
        let program = value("TERM_PROGRAM")
        if value("TMUX") != nil || program == "tmux" {
            return program == "tmux" && version(value("TERM_PROGRAM_VERSION") ?? "").map { $0 >= (3, 4) } == true
        }
        if let program, ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].contains(program) { return true }
        if let vte = value("VTE_VERSION").flatMap({ Int($0) }), vte >= 5000 { return true }
        if value("KITTY_WINDOW_ID") != nil || value("WT_SESSION") != nil { return true }
        return ["xterm-kitty", "foot", "alacritty"].contains { term.hasPrefix($0) }
    }

    /// `3.4` and `3.3a` as (3, 4) and (3, 3): the leading major and minor numbers.
    static func version(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard let major = parts.first.flatMap({ Int($0) }) else { return nil }
        let minor = parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0
        return (major, minor)
    }
}

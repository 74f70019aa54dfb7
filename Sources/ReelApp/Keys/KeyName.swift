/// Keys as `keys.toml` and the help write them: a character as itself (`j`, `?`, `G`), `space`,
/// `ctrl-d`, and `up` `down` `left` `right` `pgup` `pgdn` `home` `end` `tab` `shift-tab`
/// `enter` `esc` `backspace`.
public enum KeyName {
    static let named: [(String, Key)] = [
        ("up", .up), ("down", .down), ("left", .left), ("right", .right), ("pgup", .pageUp), ("pgdn", .pageDown),
        ("home", .home), ("end", .end), ("tab", .tab), ("shift-tab", .backTab), ("enter", .enter), ("esc", .escape),
        ("backspace", .backspace), ("space", .character(" ")),
    ]

    /// The key `name` names, or `nil`.
    public static func key(_ name: String) -> Key? {
        if let found = named.first(where: { $0.0 == name.lowercased() }) { return found.1 }
        if name.lowercased().hasPrefix("ctrl-"), name.count == 6, let letter = name.lowercased().last, letter.isASCII, letter.isLetter {
            // The terminal sends these as tab, enter and backspace (`KeyDecoder`).
            switch letter {
            case "i": return .tab
            case "j", "m": return .enter
            case "h": return .backspace
            default: return .control(letter)
            }
        }
        guard name.count == 1, let character = name.first, !character.isWhitespace,
            !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return .character(character)
    }

    /// How the help writes `key`.
    public static func name(_ key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .home: "home"
        case .end: "end"
        case .enter: "enter"
        case .escape: "esc"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .backspace: "backspace"
        }
    }
}

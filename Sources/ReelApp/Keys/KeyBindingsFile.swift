import Foundation
import TOMLKit

/// `$XDG_CONFIG_HOME/reel/keys.toml` (else `~/.config/reel/keys.toml`): the actions given other
/// keys, read when the app starts. No file: the default keys.
///
/// ```toml
/// [keys]
/// down = ["j", "n"]   # one key or several
/// quit = "x"
/// ```
public enum KeyBindingsFile {
    public static func path(environment: [String: String]) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return config + "/reel/keys.toml"
    }

    /// The bindings the file at `path` gives; the defaults when there is none.
    public static func load(_ path: String) throws(TerminalAppError) -> KeyBindings {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return .standard }
            throw .keyBindings(path: path, KeyBindingError(line: 0, message: "cannot be read"))
        }
        do {
            return try KeyBindings(try bindings(String(decoding: data, as: UTF8.self)))
        } catch {
            throw .keyBindings(path: path, error)
        }
    }

    /// The bindings of a file's text.
    static func bindings(_ text: String) throws(KeyBindingError) -> [KeyBindings.Binding] {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw KeyBindingError(line: error.source.begin.line, message: "not TOML: \(error.description)")
        } catch {
            throw KeyBindingError(line: 0, message: "not TOML")
        }
        for name in table.keys where name != "keys" {
            throw KeyBindingError(line: line(of: name, in: text), message: "'\(name)' is not a section of keys.toml; bindings go under [keys]")
        }
        guard let keys = table["keys"]?.table else { return [] }
        let known = KeyAction.allCases.map(\.rawValue).joined(separator: ", ")
        return try keys.keys.map { name throws(KeyBindingError) in
            let line = line(of: name, in: text)
            guard let action = KeyAction(rawValue: name) else {
                throw KeyBindingError(line: line, message: "no action is called '\(name)' (actions: \(known))")
            }
            let value = keys[name]
            let names = value?.string.map { [$0] } ?? value?.array?.compactMap(\.string)
            guard let names, !names.isEmpty, value?.array.map({ $0.count == names.count }) ?? true else {
                throw KeyBindingError(line: line, message: "\(name) takes a key or a list of keys, such as \"j\" or [\"j\", \"down\"]")
            }
            return KeyBindings.Binding(action: action, keys: try names.map { key throws(KeyBindingError) in
                guard let parsed = KeyName.key(key) else {
                    throw KeyBindingError(line: line, message: "'\(key)' is not a key (a character, space, ctrl-a to ctrl-z, up, down, left, right, pgup, pgdn, home, end, tab, shift-tab)")
                }
                return parsed
            }, line: line)
        }
    }

    /// The line `name = …` (or `[name]`) is on, 1-based; the first line if none is.
    static func line(of name: String, in text: String) -> Int {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line == "[\(name)]" { return index + 1 }
            for quoted in [name, "\"\(name)\"", "'\(name)'"] where line.hasPrefix(quoted) {
                if line.dropFirst(quoted.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") { return index + 1 }
            }
        }
        return 1
    }
}

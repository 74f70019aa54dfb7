import Foundation
import Glibc

/// `$XDG_CONFIG_HOME/reel/keys.toml` (else `~/.config/reel/keys.toml`): the actions given other
/// keys, read when the app starts. No file: the default keys.
///
/// ```toml
/// [keys]
/// down = ["j", "n"]   # one key or several
/// quit = "x"
/// ```
///
/// The file is read in Swift (`KeysFileParser`), at most `maximumBytes`: whatever it holds, a
/// mistake is one short line naming the file and the line, in time linear in its length.
public enum KeyBindingsFile {
    public static func path(environment: [String: String]) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return config + "/reel/keys.toml"
    }

    /// 64 KiB: a key bindings file is a few dozen lines.
    public static let maximumBytes = 65_536

    /// The longest name an error quotes whole; a longer one names no action.
    static let longestName = KeyAction.allCases.map(\.rawValue.count).max() ?? 0

    /// The bindings the file at `path` gives; the defaults when there is none.
    public static func load(_ path: String) throws(TerminalAppError) -> KeyBindings {
        let bytes: [UInt8]
        do {
            guard let read = try contents(path) else { return .standard }
            bytes = read
        } catch {
            throw .keyBindings(path: path, error)
        }
        do {
            return try KeyBindings(try bindings(bytes))
        } catch {
            throw .keyBindings(path: path, error)
        }
    }

    /// The file's bytes, `nil` when there is none. Only a regular file is read (a FIFO would
    /// wait for a writer, `/dev/zero` never ends), and at most `maximumBytes`.
    static func contents(_ path: String) throws(KeyBindingError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw KeyBindingError(line: 0, message: "cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw KeyBindingError(line: 0, message: "is not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n > 0 {
                count += n
            } else if n == 0 {
                break
            } else if errno != EINTR && errno != EAGAIN {
                throw KeyBindingError(line: 0, message: "cannot be read (\(String(cString: strerror(errno))))")
            }
        }
        guard count <= maximumBytes else {
            let line = 1 + bytes[..<maximumBytes].count(where: { $0 == 0x0A })
            throw KeyBindingError(line: line, message: "the file is longer than \(KeysFileParser.grouped(maximumBytes)) bytes (64 KiB); a key bindings file is a few lines")
        }
        return Array(bytes[..<count])
    }

    /// The bindings of a file's bytes.
    static func bindings(_ bytes: [UInt8]) throws(KeyBindingError) -> [KeyBindings.Binding] {
        var table: [String] = []
        var tables: [[String]: Int] = [:]
        var given: [KeyAction: (line: Int, name: String)] = [:]
        var bindings: [KeyBindings.Binding] = []
        /// `value` given at `path` (from the file's top) on `line`.
        func bind(_ path: [String], _ value: KeysFileParser.Value, line: Int) throws(KeyBindingError) {
            guard path[0] == "keys" else { throw notASection(path[0], line: line) }
            guard path.count > 1 else {
                // `keys = { down = "n" }`: the same as a [keys] table.
                guard case .table(let members) = value else {
                    throw KeyBindingError(line: line, message: "keys is a table of bindings: [keys], then one action = key a line")
                }
                try define(["keys"], line: line)
                for member in members { try bind(path + member.path, member.value, line: member.line) }
                return
            }
            let action = try action(named: path[1], line: line)
            if let first = given[action] {
                let former = path[1] == action.rawValue ? first.name : path[1]
                let message =
                    first.name == path[1]
                    ? "not TOML: \(action.rawValue) is given twice (also on line \(first.line))"
                    : "\(action.rawValue) is given twice (also on line \(first.line)): \(former) is its former name"
                throw KeyBindingError(line: line, message: message)
            }
            given[action] = (line, path[1])
            guard path.count == 2, let keys = keys(value) else {
                throw KeyBindingError(line: line, message: "\(action.rawValue) takes a key or a list of keys, such as \"j\" or [\"j\", \"down\"]")
            }
            bindings.append(KeyBindings.Binding(action: action, keys: try keys.map { key throws(KeyBindingError) in
                guard let parsed = KeyName.key(key) else {
                    throw KeyBindingError(
                        line: line,
                        message: "'\(KeysFileParser.quoted(key))' is not a key (a character, space, ctrl-a to ctrl-z, up, down, left, right, pgup, pgdn, home, end, tab, shift-tab)")
                }
                return parsed
            }, line: line))
        }
        func define(_ path: [String], line: Int) throws(KeyBindingError) {
            if let first = tables[path] {
                throw KeyBindingError(line: line, message: "not TOML: [\(path.map(KeysFileParser.quoted).joined(separator: "."))] is given twice (also on line \(first))")
            }
            tables[path] = line
        }
        for statement in try KeysFileParser.parse(bytes) {
            switch statement {
            case .table(let path, let line, let list):
                guard path[0] == "keys" else { throw notASection(path[0], line: line) }
                guard !list else { throw KeyBindingError(line: line, message: "[[keys]] is a list of tables; bindings go under [keys]") }
                if path.count > 1 {
                    // [keys.down]: an action given a table.
                    try bind(path, .table([]), line: line)
                }
                try define(path, line: line)
                table = path
            case .value(let path, let value, let line):
                try bind(table + path, value, line: line)
            }
        }
        return bindings
    }

    /// A key's name, or a list of them; `nil` for any other value.
    private static func keys(_ value: KeysFileParser.Value) -> [String]? {
        switch value {
        case .string(let key): return [key]
        case .array(let items):
            let keys = items.compactMap { if case .string(let key) = $0 { key } else { nil } }
            return keys.isEmpty || keys.count != items.count ? nil : keys
        case .table, .other: return nil
        }
    }

    /// The action `name` names. A name longer than any action's is refused by its length, quoted
    /// cut short: a file of one 20,000-character name is answered at once, in one short line.
    private static func action(named name: String, line: Int) throws(KeyBindingError) -> KeyAction {
        if name.count > longestName {
            throw KeyBindingError(
                line: line,
                message: "no action is called '\(KeysFileParser.quoted(name))': a name of \(KeysFileParser.grouped(name.count)) characters is longer than any action's (at most \(longestName))")
        }
        guard let action = KeyAction(named: name) else {
            let known = KeyAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw KeyBindingError(line: line, message: "no action is called '\(KeysFileParser.quoted(name))' (actions: \(known))")
        }
        return action
    }

    private static func notASection(_ name: String, line: Int) -> KeyBindingError {
        KeyBindingError(line: line, message: "'\(KeysFileParser.quoted(name))' is not a section of keys.toml; bindings go under [keys]")
    }
}

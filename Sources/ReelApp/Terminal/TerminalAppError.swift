/// Why the terminal app could not start.
public enum TerminalAppError: Error, CustomStringConvertible, Sendable {
    /// Standard input or output is no terminal.
    case notATerminal
    case setup(String)
    /// `keys.toml` is not TOML, names no action, binds a key twice or a reserved one.
    case keyBindings(path: String, KeyBindingError)

    public var description: String {
        switch self {
        case .notATerminal: "reel ui needs a terminal (standard input and output); the commands work without one (see 'reel help')"
        case .setup(let why): "the terminal app cannot start: \(why)"
        case .keyBindings(let path, let error): "\(path)\(error.line > 0 ? " line \(error.line)" : ""): \(error.message)"
        }
    }
}

extension TerminalAppError {
    /// The person's mistake (no terminal), not the system's.
    public var isUsage: Bool {
        switch self {
        case .notATerminal, .keyBindings: true
        case .setup: false
        }
    }
}

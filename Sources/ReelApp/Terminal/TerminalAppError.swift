/// Why the terminal app could not start.
public enum TerminalAppError: Error, CustomStringConvertible, Sendable {
    /// Standard input or output is no terminal.
    case notATerminal
    case setup(String)

    public var description: String {
        switch self {
        case .notATerminal: "reel ui needs a terminal (standard input and output); the commands work without one (see 'reel help')"
        case .setup(let why): "the terminal app cannot start: \(why)"
        }
    }
}

extension TerminalAppError {
    /// The person's mistake (no terminal), not the system's.
    public var isUsage: Bool {
        if case .notATerminal = self { return true }
        return false
    }
}

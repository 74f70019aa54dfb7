#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public enum Termination: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)

    init(waitStatus status: Int32) {
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// The shell's number for it: the exit status, or 128 + the signal.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }
}

#if canImport(Glibc)
public import Glibc
#endif

/// Where one of a child's standard descriptors goes (`ChildProcess.spawn`).
public enum Redirection: Sendable {
    /// /dev/null.
    case null
    /// A file read from the start.
    case read(String)
    /// A file made empty (created with `mode` when missing) and written.
    case write(String, mode: mode_t = 0o600)
    /// A file written at its end (created with `mode` when missing).
    case append(String, mode: mode_t = 0o600)
    /// A descriptor of this process's (a pipe's end), which the child gets a copy of.
    case descriptor(Int32)
    /// A terminal's device, read and written (with `newSession`, the child's controlling terminal).
    case terminal(String)
    /// The same as the child's descriptor `n`, set up before this one (stderr to stdout: `.sameAs(1)`).
    case sameAs(Int32)

    func add(to actions: inout posix_spawn_file_actions_t, as target: Int32) {
        switch self {
        case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
        case .read(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_RDONLY, 0)
        case .write(let path, let mode): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        case .append(let path, let mode): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, mode)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        case .terminal(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_RDWR, 0)
        case .sameAs(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
    }
}

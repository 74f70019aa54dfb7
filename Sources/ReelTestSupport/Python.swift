import Foundation
import Processes

/// The Python interpreter the tests run their scripts with: `python3` found in PATH once, as the
/// file it is. A version manager's `python3` in PATH (pyenv's shim is a shell script that runs a
/// dozen more processes to choose a version) cost every one of a run's hundreds of scripts a
/// tenth of a second of processor time before Python started.
public enum Python {
    public static let executable: String = {
        let output = temporaryDirectory("python")
        let path = output + "/executable"
        let ended = try? ChildProcess.spawn(
            ["/usr/bin/env", "python3", "-c", "import sys; sys.stdout.write(sys.executable)"], standardOutput: .write(path)
        ).wait()
        let found = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard ended?.status == 0, found.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: found) else { return "python3" }
        return found
    }()

    /// `python3 ARGUMENTS` as a command: the interpreter's own path when it was found.
    public static func command(_ arguments: [String]) -> [String] {
        executable.hasPrefix("/") ? [executable] + arguments : ["/usr/bin/env", "python3"] + arguments
    }
}

import Reel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Crash tests stop `reel` at a named step: with `REEL_FAILPOINT=<name>` set, reaching that step
/// kills the process with SIGKILL, as a power cut would. Unset (always, outside tests), nothing.
enum Failpoint {
    private static let armed = ProcessInfo.processInfo.environment["REEL_FAILPOINT"]

    static func reach(_ name: String) {
        guard let armed, armed == name else { return }
        kill(getpid(), SIGKILL)
    }
}

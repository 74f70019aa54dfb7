#if canImport(Glibc)
import Glibc
#endif

/// A program that could not be started, and why (`posix_spawn`'s error).
public struct SpawnFailure: Error, CustomStringConvertible, Sendable {
    public let program: String
    public let code: Int32

    public var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
}

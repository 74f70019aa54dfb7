import Reel
import ArgumentParser
import Foundation

/// The exit codes `reel` documents in the handbook (Exit codes); scripts depend on them.
enum ExitStatus: Int32 {
    case success = 0
    case usage = 64
    case integrityFailure = 65
    case notFound = 66
    case unavailable = 69
    /// No space left on the device holding the data directory; nothing was changed.
    case noSpace = 73
    /// Standard output (or the file output goes to) could not be written: a full disk,
    /// `/dev/full`, an I/O error. A change the command made is saved all the same.
    case outputFailed = 74
    /// Also "try again later": TMDb rate limiting.
    case conflict = 75
    /// TMDb refused the configured credentials.
    case credentials = 77
    /// A bug: an error no kind describes. The message says what it was.
    case internalError = 70
    /// The storage engine or the system failed in a way no other code names.
    case storageFailure = 71
}

/// A failure to report as one line on stderr with its exit status.
struct ReelFailure: Error {
    let message: String
    let status: ExitStatus
}

extension ExitStatus {
    /// The one table from a failure's kind to `reel`'s exit status (handbook, "Exit codes").
    init(_ kind: FailureKind) {
        self = switch kind {
        case .usage: .usage
        case .data, .tampered: .integrityFailure
        case .notFound: .notFound
        case .unavailable: .unavailable
        case .noSpace: .noSpace
        case .outputFailed: .outputFailed
        case .temporary: .conflict
        case .refusedCredentials: .credentials
        case .storage: .storageFailure
        }
    }
}

extension ReelFailure {
    /// Turns whatever a command threw into words and a status; never a stack trace. Every
    /// module's error says its kind (`KindedError`); anything else is a bug, reported as it is.
    static func from(_ error: any Error) -> ReelFailure {
        switch error {
        case let failure as ReelFailure: failure
        case let error as any KindedError: ReelFailure(message: error.summary, status: ExitStatus(error.kind))
        default: ReelFailure(message: "internal error: \(error) (please report it)", status: .internalError)
        }
    }
}

/// Runs a command body, printing a failure as one line on stderr and exiting with its status.
func runReporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        let failure = ReelFailure.from(error)
        Console.error(failure.message)
        throw ExitCode(failure.status.rawValue)
    }
}

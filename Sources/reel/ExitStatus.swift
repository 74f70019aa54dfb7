import ArgumentParser
import Catalog
import EventLog
import Foundation
import LMDB
import Ledger
import Reel

/// The exit codes `reel` documents in the README; scripts depend on them.
enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
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
}

/// A failure to report as one line on stderr with its exit status.
struct ReelFailure: Error {
    let message: String
    let status: ExitStatus
}

extension ReelFailure {
    /// Turns whatever a command threw into words and a status; never a stack trace.
    static func from(_ error: any Error) -> ReelFailure {
        switch error {
        case let failure as ReelFailure:
            return failure
        case let error as DomainError:
            switch error {
            case .accountDeleted: return ReelFailure(message: error.description, status: .notFound)
            case .undecodableEvent: return ReelFailure(message: error.description, status: .integrityFailure)
            default: return ReelFailure(message: error.description, status: .usage)
            }
        case let error as ReelError:
            switch error {
            case .noAccount, .accountDeleted, .noLedger, .asOfOutOfRange: return ReelFailure(message: error.description, status: .notFound)
            case .undecodableEvent, .corruptProjection, .missingPhoto, .rebuildRefused:
                return ReelFailure(message: error.description, status: .integrityFailure)
            case .handleTaken: return ReelFailure(message: error.description, status: .conflict)
            }
        case let error as EventLogError:
            switch error {
            case .wrongExpectedVersion, .duplicateEventID: return ReelFailure(message: error.description, status: .conflict)
            case .invalidStreamID, .invalidEventType, .payloadTooLarge: return ReelFailure(message: error.description, status: .usage)
            case .streamShredded: return ReelFailure(message: error.description, status: .notFound)
            case .unsupportedFormat, .corruptEnvelope, .corruptBlob, .brokenChain, .missingKeyStore, .foreignKeyStore, .missingKey,
                .missingLedger, .unauthorizedShredding:
                return ReelFailure(message: error.description, status: .integrityFailure)
            case .storage(let storage): return from(storage)
            }
        case let error as CatalogError:
            switch error {
            case .notFound: return ReelFailure(message: error.description, status: .notFound)
            case .invalidCredentials: return ReelFailure(message: error.description, status: .credentials)
            case .missingCredentials, .unavailable, .notCached: return ReelFailure(message: error.description, status: .unavailable)
            case .rateLimited: return ReelFailure(message: error.description, status: .conflict)
            case .rejected: return ReelFailure(message: error.description, status: .usage)
            case .malformedResponse: return ReelFailure(message: error.description, status: .integrityFailure)
            }
        case let error as CredentialStore.StoreError:
            switch error {
            case .unreadable(let path, let reason): return ReelFailure(message: "the credentials file \(path) \(reason)", status: .usage)
            case .unwritable(let path, let reason): return ReelFailure(message: "cannot write \(path): \(reason)", status: .unavailable)
            case .empty: return ReelFailure(message: "no credential given", status: .usage)
            case .malformed(let source): return ReelFailure(message: Self.malformedCredential("in \(source)"), status: .usage)
            }
        case let error as LMDBError:
            switch error.code {
            case .accessDenied: return ReelFailure(message: "permission denied: \(error.message)", status: .unavailable)
            case .noSpace: return ReelFailure(message: "\(error.message); nothing was changed", status: .noSpace)
            case .mapFull: return ReelFailure(message: "no space left for the ledger: \(error.message)", status: .unavailable)
            case .readOnly: return ReelFailure(message: error.message, status: .unavailable)
            case .invalid, .versionMismatch:
                return ReelFailure(message: "the data directory does not hold a readable ledger: \(error.message)", status: .integrityFailure)
            case .corrupted, .pageNotFound, .panic, .incompatible, .emptyDataFile:
                // The message names the damaged file (see `DataFileCheck`, `Environment.read`).
                return ReelFailure(message: "damaged data file \(error.message)", status: .integrityFailure)
            default: return ReelFailure(message: "storage failed: \(error)", status: .failure)
            }
        default:
            return ReelFailure(message: "\(error)", status: .failure)
        }
    }

    /// Why a credential (`place`: "in TMDB_API_TOKEN", "on standard input") is refused, without a
    /// word of the credential itself.
    static func malformedCredential(_ place: String) -> String {
        "the TMDb credential \(place) holds a space, a line break or another character no credential has "
            + "(it is one line of printable ASCII); nothing was sent to TMDb"
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

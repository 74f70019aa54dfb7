import Failures
import Foundation
import NIOCore
import PostgresNIO

/// PostgreSQL's and PostgresNIO's errors as Reel's failures: a kind (so the command's exit code
/// and the service's status follow) and one line that names the store by its URL without the
/// password. The server's primary message is kept (it names what failed); its detail is not (it
/// can quote the values of a row).
enum PostgresFailure {
    static func kinded(_ error: any Error, _ location: PostgresLocation) -> any Error {
        if error is any KindedError { return error }
        let store = "the store \(location)"
        if error is PostgresDecodingError {
            return Failure(.tampered, "\(store): a table of Reel's holds a column of a type Reel did not make (is the database another program's?)")
        }
        if let (state, message) = serverError(error) { return server(state, message, location) }
        // The older API's words for the same failures (a statement the connection prepared),
        // and the socket's own errors, which it passes on as they are.
        switch error {
        case PostgresError.connectionClosed: return Failure(.unavailable, "\(store) cannot be reached: the connection was closed")
        case PostgresError.protocol: return Failure(.unavailable, "\(store) did not answer as a PostgreSQL server does")
        case is IOError, is ChannelError: return Failure(.unavailable, "\(store) cannot be reached: the connection failed")
        default: break
        }
        guard let error = error as? PSQLError else {
            return Failure(.storage, "\(store) failed: \(type(of: error))")
        }
        switch error.code {
        case .sslUnsupported:
            return Failure(.unavailable, "\(store) does not offer TLS, which sslmode asks for")
        case .receivedUnencryptedDataAfterSSLRequest, .messageDecodingFailure, .unexpectedBackendMessage:
            return Failure(.unavailable, "\(store) did not answer as a PostgreSQL server does")
        case .authMechanismRequiresPassword:
            return Failure(.refusedCredentials, "\(store) asks for a password and the URL gives none")
        case .unsupportedAuthMechanism, .saslError:
            return Failure(.refusedCredentials, "\(store) asks for an authentication Reel cannot give (\(error.code))")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .failedToAddSSLHandler:
            return Failure(.unavailable, "\(store) cannot be reached: \(cause(of: error))")
        default:
            return Failure(.storage, "\(store) failed: \(error.code)")
        }
    }

    /// The SQLSTATE and primary message of an error the server reported, in either of the
    /// driver's forms (a statement the connection prepared fails with the older one); `nil` for
    /// any other failure.
    static func serverError(_ error: any Error) -> (state: String, message: String)? {
        if let error = error as? PSQLError, error.code == .server {
            return (error.serverInfo?[.sqlState] ?? "", error.serverInfo?[.message] ?? "no message")
        }
        if case PostgresError.server(let answer) = error {
            return (answer.fields[.sqlState] ?? "", answer.fields[.message] ?? "no message")
        }
        return nil
    }

    /// A server's error (`serverError`) as a Reel failure.
    private static func server(_ state: String, _ message: String, _ location: PostgresLocation) -> Failure {
        let store = "the store \(location)"
        // A server may quote what it was sent: never the password.
        var message = message
        if let password = location.password { message = message.replacingOccurrences(of: password, with: "***") }
        switch state {
        case "28P01", "28000":
            return Failure(.refusedCredentials, "\(store) refused the user or password: \(message)")
        case "3D000":
            return Failure(.notFound, "\(store): the database does not exist (create it with createdb, then run 'reel store migrate')")
        case "53100":
            return Failure(.noSpace, "\(store) has no space left: \(message); nothing was changed")
        case "40001", "40P01", "55P03":
            return Failure(.temporary, "\(store): a concurrent change won (\(state)); try again")
        case "57P01", "57P02", "57P03", "08000", "08003", "08006":
            return Failure(.unavailable, "\(store) is shutting down or not accepting connections (\(state)): \(message)")
        case "42501":
            return Failure(.unavailable, "\(store): permission denied: \(message)")
        case "25006":
            return Failure(.unavailable, "\(store) is read-only: \(message)")
        case "57014":
            return Failure(.temporary, "\(store) cancelled the statement (a time limit, or an operator): \(message)")
        default:
            return Failure(.storage, "\(store) failed (SQLSTATE \(state)): \(message)")
        }
    }

    /// The same for any error of a connection attempt, a server's words with the password left out.
    static func cause(of error: any Error, _ location: PostgresLocation) -> String {
        var words = (error as? PSQLError).map(cause(of:)) ?? (error as? any KindedError)?.summary ?? "\(type(of: error))"
        if let password = location.password, !password.isEmpty { words = words.replacingOccurrences(of: password, with: "***") }
        return words
    }

    /// What a connection failure came to, in a few words: the system's words for its errno when
    /// NIO gives one ("Connection refused"), else the kind of failure.
    static func cause(of error: PSQLError) -> String {
        let text = error.underlying.map { "\($0)" } ?? ""
        if let range = text.range(of: "errno: "), let errno = Int32(text[range.upperBound...].prefix { $0.isNumber }) {
            return String(cString: strerror(errno)).lowercased()
        }
        if text.contains("NIOConnectionError") || text.contains("connectTimeout") || text.contains("timeout") {
            return "no answer in time, or the host name does not resolve"
        }
        if text.contains("NIOSSL") || text.contains("BoringSSL") || text.contains("certificate") {
            return "TLS failed (the certificate, or the server's TLS)"
        }
        switch error.code {
        case .server: return error.serverInfo?[.message] ?? "the server refused"
        case .serverClosedConnection: return "the server closed the connection"
        case .failedToAddSSLHandler: return "TLS could not be started"
        default: return "\(error.code)"
        }
    }
}

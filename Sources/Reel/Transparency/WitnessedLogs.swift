import Foundation
import EventLog
import Failures
import Files

/// The logs a witness cosigns for (`reel serve --witness FILE`): their public keys, one a line as
/// `reel audit key` prints them (`origin+hash+base64`); blank lines and `#` comments are skipped.
/// A log may be listed with several keys: a checkpoint signed by any of them is taken.
public struct WitnessedLogs: Sendable {
    let verifiers: [String: [NoteVerifier]]

    /// The logs `text` lists; a usage failure naming the first line that is not a log's key.
    public init(text: String) throws {
        var verifiers: [String: [NoteVerifier]] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let verifier = NoteVerifier(trimmed), verifier.kind == .signature else {
                throw Failure(.usage, "line \(number + 1) of the witnessed logs is not a log's key (origin+hash+base64, as `reel audit key` prints it)")
            }
            verifiers[verifier.name, default: []].append(verifier)
        }
        guard !verifiers.isEmpty else { throw Failure(.usage, "the witnessed logs name no log: give one key a line, as `reel audit key` prints it") }
        self.verifiers = verifiers
    }

    /// The logs the file at `path` lists (at most 1 MiB); a usage failure naming the file when it
    /// cannot be read or lists none.
    public init(file path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: 1 << 20)
        } catch {
            throw Failure(error.kind, "cannot read the witnessed logs file: \(error.summary)")
        }
        do {
            try self.init(text: String(decoding: bytes, as: UTF8.self))
        } catch let failure as Failure {
            throw Failure(.usage, "\(SafeText.line(path)): \(failure.summary)")
        }
    }

    /// How many logs.
    public var count: Int { verifiers.count }
}

import Reel

/// Reads and verifies a Reel export a person named: one line naming the file and where it fails.
enum ExportFile {
    static func verified(_ bytes: [UInt8], file: String, suffix: String = "") throws -> ExportDocument {
        do {
            return try ExportDocument(parsing: bytes)
        } catch let error as ExportError {
            throw ReelFailure(message: "\(file): \(error.description)\(suffix)", status: .integrityFailure)
        } catch {
            throw ReelFailure(message: "\(file): \(error)\(suffix)", status: .integrityFailure)
        }
    }
}

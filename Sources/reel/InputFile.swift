import Foundation

/// Reads a file a person named, with one clear line when it cannot be read.
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReelFailure(message: "\(path): no such file", status: .notFound)
        }
        guard !isDirectory.boolValue else { throw ReelFailure(message: "\(path) is a directory, not a file", status: .usage) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReelFailure(message: "\(path): cannot be read (permission denied?)", status: .unavailable)
        }
        return Array(data)
    }
}

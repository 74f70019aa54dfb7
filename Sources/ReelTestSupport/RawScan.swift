import Foundation

/// The files under `directory` (relative paths) whose bytes hold `bytes` anywhere: a raw scan of
/// what a server or a process left on disk, read off the concurrency pool (`offThread`).
public func files(holding bytes: [UInt8], under directory: String) async throws -> [String] {
    try await offThread {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            guard let data = FileManager.default.contents(atPath: path), data.count >= bytes.count else { continue }
            if data.range(of: Data(bytes)) != nil { found.append(relative) }
        }
        return found
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// read(2), named apart from `InputFile.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

/// Reads a file a person named (an import, an export to verify) whole, with one clear line when it
/// cannot be read.
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReelFailure(message: "\(path): no such file", status: .notFound)
        }
        guard !isDirectory.boolValue else { throw ReelFailure(message: "\(path) is a directory, not a file", status: .usage) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReelFailure(message: "\(path): cannot be read (\(String(cString: strerror(errno))))", status: .unavailable) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(path) }
        // Straight into the array, sized by fstat: no Data in between (exports run to tens of MB).
        let size = max(Int(info.st_size), 0)
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let n = systemRead(fd, buffer.baseAddress! + count, size - count)
                if n > 0 { count += n } else if n == 0 || errno != EINTR { failed = n < 0; break }
            }
        }
        guard !failed else { throw failure(path) }
        // A file that grew since fstat: the rest, a block at a time.
        var block = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = block.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if n > 0 { bytes.append(contentsOf: block[0..<n]) } else if n == 0 { break } else if errno != EINTR { throw failure(path) }
        }
        return bytes
    }

    private static func failure(_ path: String) -> ReelFailure {
        ReelFailure(message: "\(path): cannot be read (\(String(cString: strerror(errno))))", status: .unavailable)
    }
}

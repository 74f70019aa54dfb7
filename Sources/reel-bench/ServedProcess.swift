import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// A `reel serve` child process for the service benchmark: started on a free port of loopback,
/// its address read from the line it prints, its memory read from /proc, stopped with SIGTERM.
final class ServedProcess {
    let process: RunningChild
    let url: String
    var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    init(reel: String, environment: [String: String]) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchmarkError("cannot make a pipe") }
        // Not inherited by what other threads start meanwhile (the child gets its end by dup2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        let child: RunningChild
        do {
            child = RunningChild(
                try ChildProcess.spawn([reel, "serve", "--listen", "127.0.0.1:0"], environment: environment, standardOutput: .descriptor(ends[1])))
        } catch {
            close(ends[1])
            throw BenchmarkError("cannot start \(reel): \(error)")
        }
        close(ends[1])
        process = child
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while !line.contains(UInt8(ascii: "\n")) {
            let got = read(ends[0], &chunk, chunk.count)
            if got <= 0 { break }
            line.append(contentsOf: chunk[..<got])
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else {
            child.signal(SIGKILL)
            child.wait()
            throw BenchmarkError("reel serve did not start: '\(text)'")
        }
        url = String(text.dropFirst("listening on ".count))
    }

    /// Resident and peak resident memory (VmRSS, VmHWM), in MiB.
    func memory() -> (resident: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait().status
    }

    deinit { _ = stop() }

    /// Opens `count` event streams with `tokens` (round robin) and keeps the sockets open; the
    /// descriptors are returned to close later.
    func openEventStreams(_ count: Int, tokens: [String]) throws -> [Int32] {
        var sockets: [Int32] = []
        for i in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw BenchmarkError("stream \(i): connect failed (errno \(errno))") }
            let request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(tokens[i % tokens.count])\r\nAccept: text/event-stream\r\n\r\n"
            _ = request.withCString { send(fd, $0, strlen($0), 0) }
            var buffer = [UInt8](repeating: 0, count: 512)
            let got = recv(fd, &buffer, buffer.count, 0)
            guard got > 0, String(decoding: buffer[..<got], as: UTF8.self).hasPrefix("HTTP/1.1 200") else {
                throw BenchmarkError("stream \(i) was refused: \(String(decoding: buffer[..<max(0, got)], as: UTF8.self).prefix(80))")
            }
            sockets.append(fd)
        }
        return sockets
    }
}

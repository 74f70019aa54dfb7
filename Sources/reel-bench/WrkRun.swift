import Foundation

/// One `wrk` run (loopback, `--latency`) and the figures it printed: requests a second, the
/// latency percentiles and the slowest request, and how many answers were not 2xx/3xx.
struct WrkRun {
    let requestsPerSecond: Double
    let p50: Double
    let p99: Double
    /// The slowest request of the run (the largest of the threads' maxima), in milliseconds.
    let max: Double
    let errors: Int

    /// Runs `wrk -t2 -cCONNECTIONS -dSECONDS --latency [-s SCRIPT] URL`.
    static func run(_ url: String, connections: Int, seconds: Int, script: String? = nil) throws -> WrkRun {
        var command = ["/usr/bin/wrk", "-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "10s"]
        if let script {
            let file = NSTemporaryDirectory() + "reel-bench-wrk-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).lua"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            command += ["-s", file]
        }
        let (status, output) = Spawn.output(command + [url], environment: ProcessInfo.processInfo.environment)
        guard status == 0 else { throw BenchmarkError("wrk failed (exit \(status)); is it installed (Debian: wrk)?") }
        return try parse(output)
    }

    static func parse(_ output: String) throws -> WrkRun {
        func value(after prefix: String) -> String? {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }
                .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
        }
        func milliseconds(_ text: String?) -> Double {
            guard let text else { return .nan }
            for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
                return (Double(text.dropLast(unit.count)) ?? .nan) * scale
            }
            return .nan
        }
        guard let rate = value(after: "Requests/sec:").flatMap(Double.init) else { throw BenchmarkError("wrk printed no rate:\n\(output)") }
        let errors = value(after: "Non-2xx or 3xx responses:").flatMap(Int.init) ?? 0
        // "Latency   avg   stdev   max   +/- stdev": the third figure.
        let latency = value(after: "Latency")?.split(separator: " ", omittingEmptySubsequences: true).map(String.init) ?? []
        let slowest = latency.count >= 3 ? milliseconds(latency[2]) : .nan
        return WrkRun(
            requestsPerSecond: rate, p50: milliseconds(value(after: "50%")), p99: milliseconds(value(after: "99%")), max: slowest, errors: errors)
    }
}

import LMDBStore
import ArgumentParser
import EventLog
import Foundation
import Reel

/// Times one full pass over a ledger in this (fresh) process and prints figures with peak memory.
struct Measure: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "measure", abstract: "Time a full verify or read of a ledger (used by `run`).")

    enum Pass: String, ExpressibleByArgument {
        case verify, read
        /// Opening the account service of a ledger whose projections are empty: inline catch-up.
        case catchUp = "catch-up"
        /// `projections rebuild` (replay, compare, swap) on a caught-up ledger.
        case rebuild
    }
    @Argument var pass: Pass
    @Argument var dataDir: String

    static func inChild(_ arguments: [String]) throws -> JSONFigures {
        let out = Spawn.captured(CommandLine.arguments[0], arguments)
        guard out.status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed: \(out.stderr)") }
        return try JSONFigures(out.stdout)
    }

    func run() async throws {
        let log = try EventLog.open(at: dataDir)
        var events: UInt64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        switch pass {
        case .verify:
            let report = try log.verify()
            guard report.isIntact else { throw BenchmarkError("the ledger does not verify: \(report.problem!)") }
            events = report.eventsChecked
        case .read:
            var bytes = 0
            for try await event in log.events(from: 1, batchSize: 4_096) {
                bytes &+= event.payload?.count ?? 0
                events += 1
            }
            precondition(bytes > 0)
        case .catchUp:
            // Opening the service applies every event the projections have not seen.
            _ = try AccountService(log: log)
            events = try log.head()?.position ?? 0
        case .rebuild:
            let service = try AccountService(log: log)
            let rebuildStart = DispatchTime.now().uptimeNanoseconds
            let report = try service.rebuildProjections(checkOnly: false)
            guard report.drift.isEmpty else { throw BenchmarkError("drift after catch-up: \(report.drift.prefix(3))") }
            events = report.events
            let time = Double(DispatchTime.now().uptimeNanoseconds - rebuildStart) / 1e9
            printFigures(events: events, time: time)
            return
        }
        let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        printFigures(events: events, time: time)
    }

    private func printFigures(events: UInt64, time: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        // Peak RSS counts the ledger's memory-mapped pages too; anonymous memory is the process's own.
        let anonymous = Self.statusKiB("RssAnon") / 1024
        print(#"{"events":\#(events),"seconds":\#(time),"eventsPerSecond":\#(Double(events) / time),"peakMiB":\#(Double(usage.ru_maxrss) / 1024),"anonymousMiB":\#(anonymous)}"#)
    }

    /// A `kB` figure from /proc/self/status.
    static func statusKiB(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        }
        return .nan
    }
}

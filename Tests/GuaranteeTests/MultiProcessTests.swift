import EndToEndSupport
import LMDBStore
import EventLog
import Foundation
import Processes
import ReelTestSupport
import Testing

@Suite struct MultiProcessTests {
    /// Starts `reel-bench worker` processes; returns them with the files their acks go to.
    private func startWorkers(_ dir: String, streams: [String], count: Int, concurrency: Int = 8) throws -> [(ChildProcess, String)] {
        try streams.map { stream in
            let acks = temporaryDirectory("acks") + "/acks"
            let process = try ChildProcess.spawn(
                [Harness.binaries + "/reel-bench", "worker", "--data-dir", dir, "--stream", stream, "--count", "\(count)",
                 "--concurrency", "\(concurrency)", "--initial-map-size", "65536"],
                standardOutput: .write(acks), standardError: .write(acks + ".err"))
            return (process, acks)
        }
    }

    /// What a worker whose acks went to `acks` printed on stderr.
    private func errors(_ acks: String) -> String {
        (try? String(contentsOfFile: acks + ".err", encoding: .utf8)) ?? ""
    }

    private func acks(_ file: String) -> [(UInt64, UUID)] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let position = UInt64(parts[0]), let id = UUID(uuidString: String(parts[1])) else { return nil }
            return (position, id)
        }
    }

    @Test func severalProcessesAppendToOneLedgerWithoutLosingOrDuplicatingPositions() async throws {
        let dir = temporaryDirectory()
        let streams = ["ann", "ben", "cy", "dee"]
        let workers = try startWorkers(dir, streams: streams, count: 400)
        for (process, acks) in workers {
            #expect(await process.exit().status == 0, "\(errors(acks))")
        }
        let acked = workers.flatMap { acks($0.1) }
        #expect(acked.count == 1_600)
        #expect(Set(acked.map(\.0)) == Set(1...1_600))

        let log = try EventLog.open(at: dir)
        #expect(try log.head()?.position == 1_600)
        for stream in streams {
            #expect(try log.version(of: try StreamID(stream)) == 400)
        }
        for (position, id) in acked.prefix(200) {
            #expect(try log.position(of: id) == position)
        }
        #expect(try log.verify().isIntact)
        #expect(try await Harness.python("verify_ledger.py", [dir + "/ledger"]).status == 0)
    }

    /// Processes that open a data directory nobody has opened yet, all at once: each finds what
    /// the others are making (an empty `data.mdb`, a key store beside a ledger not yet written, a
    /// ledger not yet paired). Without `open.lock` one removed a file another had just made, or
    /// took the new key store for keys whose ledger was lost, in two runs of fifteen rounds out of three.
    @Test func processesOpeningANewDataDirectoryAtOnceAllSucceed() async throws {
        for round in 1...40 {
            let dir = temporaryDirectory()
            let streams = (1...6).map { "s\($0)" }
            let workers = try startWorkers(dir, streams: streams, count: 3, concurrency: 1)
            for (process, acks) in workers {
                #expect(await process.exit().status == 0, "round \(round): \(errors(acks))")
            }
            let acked = workers.flatMap { acks($0.1) }
            #expect(Set(acked.map(\.0)) == Set(1...18), "round \(round)")
            let log = try EventLog.open(at: dir)
            #expect(try log.head()?.position == 18, "round \(round)")
            #expect(try log.verify().isIntact, "round \(round)")
        }
    }

    @Test func aProcessKilledMidAppendLosesNothingItAcknowledged() async throws {
        let dir = temporaryDirectory()
        let (process, ackFile) = try startWorkers(dir, streams: ["victim"], count: 10_000_000, concurrency: 16)[0]
        let (bystander, bystanderAcks) = try startWorkers(dir, streams: ["bystander"], count: 300, concurrency: 4)[0]
        try? await waitFor("500 acknowledged appends", seconds: 60) { acks(ackFile).count >= 500 }
        process.signal(SIGKILL)
        #expect(await process.exit().termination == .signalled(SIGKILL))
        #expect(await bystander.exit().status == 0)

        let acked = acks(ackFile)
        #expect(acked.count >= 500)
        let log = try EventLog.open(at: dir)
        for (position, id) in acked {
            #expect(try log.position(of: id) == position)
        }
        #expect(acks(bystanderAcks).count == 300)
        let report = try log.verify()
        #expect(report.isIntact, "\(String(describing: report.problem))")
        #expect(try await Harness.python("verify_ledger.py", [dir + "/ledger"]).status == 0)
        // The ledger takes appends after the crash (the dead writer's lock and reader slots are freed).
        try await log.append([try ProposedEvent(type: "after-crash", payload: [])], to: try StreamID("victim"))
        #expect(try log.verify().isIntact)
    }
}

import ArgumentParser
import EventLog
import Foundation

/// A short end-to-end tour of the event log, until the domain commands exist.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the event log at work: appends, idempotency, conflicts, group commit, reads, a live subscription, verify, backup."
    )

    @OptionGroup var global: GlobalOptions

    private func event(_ type: String, _ json: String, id: UUID = .newEventID()) throws -> ProposedEvent {
        try ProposedEvent(id: id, type: type, payload: Array(json.utf8))
    }

    func run() async throws {
        try await runReporting {
            let directory = global.dataDir ?? ProcessInfo.processInfo.environment["REEL_DATA_DIR"]
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-demo-\(UUID().uuidString.prefix(8))").path
            let log = try EventLog.open(at: directory)
            let say: (String) -> Void = { if !global.json { print($0) } }
            say("ledger: \(directory)/ledger, keys: \(directory)/keys")

            let ann = try StreamID("demo-ann-\(UUID().uuidString.prefix(8).lowercased())")
            let ben = try StreamID("demo-ben-\(UUID().uuidString.prefix(8).lowercased())")

            // 1. Appends with optimistic concurrency.
            let opened = try await log.append(
                [try event("account-opened", #"{"handle":"ann"}"#),
                 try event("favorite-added", #"{"mediaType":"movie","id":550}"#),
                 try event("favorite-added", #"{"mediaType":"tv","id":1399}"#)],
                to: ann, expected: .noStream)
            say("1. appended 3 events to \(ann) at positions \(opened.positions.map(String.init).joined(separator: ", ")); stream version \(opened.streamVersion)")

            // 2. Idempotency: a retry with the same event id writes nothing.
            let retryID = UUID.newEventID()
            let first = try await log.append([try event("language-switched", #"{"language":"de-DE"}"#, id: retryID)], to: ann)
            let retry = try await log.append([try event("language-switched", #"{"language":"de-DE"}"#, id: retryID)], to: ann)
            say("2. event \(retryID.uuidString.lowercased()) stored at \(first.positions[0]); the retry returned \(retry.positions[0]) and deduplicated=\(retry.deduplicated)")

            // 3. A stale expected version is refused, naming both versions.
            do {
                try await log.append([try event("favorite-removed", #"{"mediaType":"movie","id":550}"#)], to: ann, expected: .exact(1))
            } catch let error as EventLogError {
                say("3. refused as expected: \(error)")
            }

            // 4. Group commit: 64 concurrent appenders share few transactions.
            let before = try log.environment.info().lastTransactionID
            let positions = try await withThrowingTaskGroup(of: UInt64.self) { group in
                for i in 0..<64 {
                    group.addTask {
                        try await log.append([try event("favorite-added", #"{"mediaType":"movie","id":\#(1000 + i)}"#)], to: ben).positions[0]
                    }
                }
                return try await group.reduce(into: [UInt64]()) { $0.append($1) }
            }
            let transactions = try log.environment.info().lastTransactionID - before
            say("4. 64 concurrent appends to \(ben) took \(transactions) write transaction(s); positions \(positions.min()!)...\(positions.max()!), all distinct: \(Set(positions).count == 64)")

            // 5. Reads open the sealed payloads with the stream's key.
            let history = try log.read(stream: ann)
            say("5. \(ann) reads back decrypted:")
            for e in history {
                say("   v\(e.streamVersion) @\(e.position) \(e.type) \(String(decoding: e.payload ?? [], as: UTF8.self))")
            }

            // 6. A catch-up subscription: history, caught up, then live events.
            var delivered = 0
            var live: RecordedEvent?
            let writer = Task {
                try await Task.sleep(for: .milliseconds(50))
                try await log.append([try event("profile-name-changed", #"{"name":"Ann"}"#)], to: ann)
            }
            for try await message in log.subscribe(from: 1) {
                switch message {
                case .event(let e):
                    if live == nil && e.type == "profile-name-changed" { live = e }
                    delivered += 1
                case .caughtUp:
                    say("6. subscription caught up after \(delivered) events; waiting for a live one…")
                }
                if live != nil { break }
            }
            try await writer.value
            say("   live event arrived: @\(live!.position) \(live!.type)")

            // 7. Verify the chain and back up.
            let report = try log.verify()
            say("7. verify: \(report.isIntact ? "intact" : "DAMAGED \(report.problem!)"), \(report.eventsChecked) events, head \(report.head!.hash.hex)")
            let backup = directory + "-backup"
            try? FileManager.default.removeItem(atPath: backup)
            try log.backup(to: backup)
            let copy = try EventLog.open(at: backup).verify()
            say("8. compact backup in \(backup): \(copy.eventsChecked) events, same head: \(copy.head == report.head)")
            say("   independent check: python3 Tools/verify_ledger.py \(directory)/ledger")

            if global.json {
                try printJSON(try log.envelopes(from: 1, maxCount: Int.max).map(EnvelopeJSON.init))
            }
            if !report.isIntact { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
        }
    }
}

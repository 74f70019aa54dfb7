import ArgumentParser
import EventLog
import Foundation
import Ledger
import Reel

/// A short tour of the ledger: commands become events, projections follow in the same
/// transaction, idempotency, time travel, history, a rebuild check and the chain verify.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tour the ledger in a scratch directory: favorites, settings, idempotency, history, time travel, rebuild, verify."
    )

    @OptionGroup var global: GlobalOptions

    /// A real 1x1 PNG, for the photo step.
    static let png = Array(
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

    func run() async throws {
        try await runReporting {
            let directory = global.dataDir ?? ProcessInfo.processInfo.environment["REEL_DATA_DIR"]
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-demo-\(UUID().uuidString.prefix(8))").path
            let service = try AccountService.open(at: directory)
            let say: (String) -> Void = { if !global.json { print($0) } }
            let suffix = UUID().uuidString.prefix(4).lowercased()
            let ann = try AccountHandle("ann-\(suffix)"), ben = try AccountHandle("ben-\(suffix)")
            say(Terminal.bold("Reel demo") + " in \(directory) (ledger/, keys/)")

            func run(_ step: String, _ command: Command, _ handle: AccountHandle, photo: [UInt8]? = nil) throws {
                let report = try service.execute(command, for: handle, photo: photo)
                let positions = report.appended.map { "@\($0.position)" }.joined(separator: " ")
                say("\(step) \(handle): " + report.outcomes.map(\.message).joined(separator: "; ")
                    + (report.appended.isEmpty ? " [nothing appended]" : " [appended \(positions)]"))
            }
            try run("1.", .addFavorites([try MediaKey(.movie, 550), try MediaKey(.movie, 603), try MediaKey(.tv, 1399)]), ann)
            try run("2.", .addFavorites([try MediaKey(.movie, 550)]), ann)
            try run("3.", .rename(try ProfileName("Ann Example")), ann)
            try run("4.", .switchLanguage(try LanguageTag("de-DE")), ann)
            try run("5.", .changePhoto(try AccountService.photoReference(for: Self.png)), ann, photo: Self.png)
            try run("6.", .removeFavorites([try MediaKey(.movie, 603)]), ann)
            try run("7.", .addFavorites([try MediaKey(.tv, 94605)]), ben)

            let now = try service.view(of: ann)
            say("8. \(ann) saved now: " + now.state.saved.items.map(\.key.description).joined(separator: ", ")
                + "; name \"\(now.state.settings.name?.value ?? "")\", language \(now.state.settings.language)")
            let past = try service.view(of: ann, asOf: .streamVersion(4))
            say("9. as of v4 (time travel): " + past.state.saved.items.map(\.key.description).joined(separator: ", ")
                + "; language \(past.state.settings.language)")
            say("10. history of \(ann):")
            for entry in try service.history(of: ann).1 {
                say("    @\(entry.position) v\(entry.streamVersion) \(Timestamp.short(entry.recordedAt))  \(entry.summary)")
            }
            let check = try service.rebuildProjections(checkOnly: true)
            say("11. projections rebuilt from the log match the live ones: \(check.drift.isEmpty ? "no drift" : "\(check.drift.count) drift(s)")")
            let report = try service.log.verify()
            say("12. verify: \(report.isIntact ? "intact" : "DAMAGED \(report.problem!)"), \(report.eventsChecked) events, head \(report.head?.hash.hex ?? "-")")
            say("    try: reel saved --user \(ann) --data-dir \(directory)   |   python3 Tools/verify_ledger.py \(directory)/ledger")

            if global.json {
                try printJSON(try service.log.envelopes(from: 1, maxCount: Int.max).map(EnvelopeJSON.init))
            }
            if !report.isIntact || !check.drift.isEmpty { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
        }
    }
}

import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The key store's life cycle under load (issue 17, item 1), through the built binaries: no
/// interleaving of deletions with new accounts and readers loses a live key. The two races run one
/// after the other (each keeps both cores busy); the rest of the life cycle is
/// `KeyStoreLifecycleTests`, and the protocol's models `KeyStoreModelTests`.
@Suite(.serialized) struct KeyStoreRaceTests {
    /// 250 deletions, not the benchmark's 1,000: a run of 1,000 cost the suite 74 s of processor
    /// time (a tenth of it), and each deletion races the same way. Every interleaving of the
    /// protocol is checked by spin (`KeyStoreModelTests`); this shows the binaries keep it.
    @Test func deletionsRacingNewAccountsAndReadersLoseNoKey() async throws {
        let out = try await Harness.run(Harness.binaries + "/reel-bench", ["keys-race", "--deletes", "250", "--adders", "4", "--readers", "1", "--json"])
        let report = try Harness.json(out.stdout)
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
        #expect(report["deletes"] as? Int == 250)
        #expect(report["keysLost"] as? Int == 0, "\(report)")
        #expect(report["deleteFailures"] as? Int == 0, "\(report)")
        #expect((report["failures"] as? [Any])?.isEmpty == true, "\(report)")
        #expect((report["acknowledged"] as? Int ?? 0) > 20, "too few concurrent new accounts to race: \(report)")
        #expect(report["destroyedKeys"] as? Int == 250 && report["liveKeys"] as? Int == report["openAccounts"] as? Int, "\(report)")
        #expect(report["ok"] as? Bool == true, "\(report)")
    }

    @Test func deletionProcessesRacingNewAccountProcessesLoseNoKey() async throws {
        let out = try await Harness.run(Harness.binaries + "/reel-bench", ["keys-race", "--deletes", "30", "--delete-processes", "--json"])
        let report = try Harness.json(out.stdout)
        #expect(out.status == 0 && report["keysLost"] as? Int == 0 && report["ok"] as? Bool == true, "\(out.stdout)\(out.stderr)")
    }
}

import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Bulk payload sealing and opening use libcrypto (loaded on first use); `REEL_LIBCRYPTO=off`, or a
/// system without it, leaves everything to swift-crypto. Ledgers written either way read the same
/// either way.
@Suite struct SealingEngineTests {
    typealias Ledger = LedgerCommandTests.Ledger
    static let off = ["REEL_LIBCRYPTO": "off"]

    private func history(_ ledger: Ledger, _ environment: [String: String]) async throws -> [[String: Any]] {
        let out = try await ledger.reel(["history", "--json"], user: "ann", environment: environment)
        #expect(out.status == 0, "\(out.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return json?["events"] as? [[String: Any]] ?? []
    }

    @Test func ledgersWrittenWithAndWithoutLibcryptoReadTheSameEitherWay() async throws {
        let ledger = Ledger()
        await #expect(try ledger.json(["about"], schema: "about.schema.json")["bulkCipher"] as? String == "libcrypto")
        let about = try await ledger.reel(["about", "--json"], environment: Self.off)
        let aboutOff = try JSONSerialization.jsonObject(with: Data(about.stdout.utf8)) as? [String: Any]
        #expect(aboutOff?["bulkCipher"] as? String == "swift-crypto", "\(about.stdout)")
        // One batch of 100 events each (bulk): the first sealed by swift-crypto, the second by libcrypto.
        // (More ids than the sample catalog holds: saved unchecked, offline.)
        let first = try await ledger.reel(["fav", "add", "movie"] + (1...100).map(String.init), user: "ann", environment: Self.off.merging(LedgerHome.unchecked) { $1 })
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await ledger.reel(["fav", "add", "tv"] + (1...100).map(String.init), user: "ann", environment: LedgerHome.unchecked)
        #expect(second.status == 0, "\(second.stderr)")
        // And single events (never bulk) in between.
        try await ledger.reel(["fav", "remove", "movie", "7"], user: "ann", environment: Self.off)
        try await ledger.reel(["fav", "remove", "tv", "7"], user: "ann")

        let withLibcrypto = try await history(ledger, [:])
        let withoutLibcrypto = try await history(ledger, Self.off)
        #expect(withLibcrypto.count == 203)
        #expect(withLibcrypto.map { "\($0["type"] ?? "?") \($0["summary"] ?? "?")" } == withoutLibcrypto.map { "\($0["type"] ?? "?") \($0["summary"] ?? "?")" })
        #expect(withLibcrypto.filter { ($0["payload"] as? [String: Any]) == nil }.isEmpty, "every payload opens")

        for environment in [[:], Self.off] {
            let rebuild = try await ledger.reel(["projections", "rebuild", "--check", "--json"], environment: environment)
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(rebuild.stdout.utf8)) as? [String: Any]
            #expect(report?["ok"] as? Bool == true && report?["events"] as? Int == 203)
        }
    }
}

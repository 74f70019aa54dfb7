import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The key store's protocols as models (issue 17, item 1): spin checks every interleaving, and
/// each model is shown to fail without the part that keeps it.
@Suite struct KeyStoreModelTests {
    /// The protocol's model: spin explores every interleaving of two deletions (which may fail
    /// before committing, or be killed after any step, the keyring's included) and two new keys,
    /// then the next command. Without `keys.lock` the same model loses a key; without the
    /// keyring's retirement of the old KEK a copy from before a deletion still opens the deleted
    /// key: so the check can fail.
    @Test func theKeyStoreProtocolHoldsInEveryInterleavingAndFailsWithoutItsLock() async throws {
        let holds = try await Self.spin("key-store-lifecycle.pml")
        #expect(holds.contains("errors: 0") && !holds.contains("assertion violated"), "\(holds)")
        let broken = try await Self.spin("key-store-lifecycle.pml", ["-DLOCKING=0"])
        #expect(broken.contains("assertion violated") && broken.contains("errors: 1"), "\(broken)")
        let kept = try await Self.spin("key-store-lifecycle.pml", ["-DRETIRE=0"])
        #expect(kept.contains("assertion violated (((content[g]&doneKeys)==0)") && kept.contains("errors: 1"), "\(kept)")
    }

    /// The PostgreSQL store's key hierarchy (`Schemas/keyring-rotation.pml`): spin explores every
    /// interleaving of two deletions whose rotations may stop before or after their commits, two
    /// new keys and an opening process: no live key is lost, and no generation a deleted key was
    /// wrapped under survives its rotation. Without the insert's check of the keyring's record
    /// (`FOR SHARE`, the generation), the same model loses a key, so the check can fail.
    @Test func theKeyringRotationHoldsInEveryInterleavingAndFailsWithoutItsGuard() async throws {
        let holds = try await Self.spin("keyring-rotation.pml")
        #expect(holds.contains("errors: 0") && !holds.contains("assertion violated"), "\(holds)")
        let broken = try await Self.spin("keyring-rotation.pml", ["-DGUARD=0"])
        #expect(broken.contains("assertion violated") && broken.contains("errors: 1"), "\(broken)")
    }

    /// Checks the Promela model `Schemas/NAME` with spin (every interleaving), with `defines`;
    /// what spin and the verifier printed.
    static func spin(_ name: String, _ defines: [String] = []) async throws -> String {
        let dir = temporaryDirectory("spin")
        let model = Harness.root + "/Schemas/" + name
        let out = try await Harness.run("sh", ["-c", "cd \"$1\" && spin \(defines.joined(separator: " ")) -a \"$2\" && cc -w -O2 -o pan pan.c && ./pan -m100000", "sh", dir, model])
        return out.stdout + out.stderr
    }
}

import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

@Suite struct ReelCommandTests {
    @Test func theDemoRunsAndBothVerifiersAgree() async throws {
        let dir = temporaryDirectory()
        let demo = try await Harness.reel(["demo", "--data-dir", dir])
        #expect(demo.status == 0, "\(demo.stderr)")
        // The tour runs the real commands against the sample catalog: browsing, saving, German
        // titles after the language switch, history in words, rebuild check, verify.
        #expect(demo.stdout.contains("$ reel movies --genre Drama --year 1999 --sort rating"))
        #expect(demo.stdout.contains("added movie 550 Fight Club (1999)"))
        #expect(demo.stdout.contains("movie 550 Fight Club (1999) is already saved; nothing to do"))
        #expect(demo.stdout.contains("switched language to de-DE (German)"))
        #expect(demo.stdout.contains("removed movie 603 Matrix (1999)"))
        #expect(demo.stdout.contains("no drift"))
        #expect(demo.stdout.contains("intact: 9 events"))

        let swift = try await Harness.reel(["audit", "verify", "--json", "--data-dir", dir])
        #expect(swift.status == 0)
        let python = try await Harness.python("verify_ledger.py", [dir + "/ledger", "--json"])
        #expect(python.status == 0, "\(python.stdout)\(python.stderr)")
        let a = try Harness.json(swift.stdout), b = try Harness.json(python.stdout)
        #expect(a["ok"] as? Bool == true && b["ok"] as? Bool == true)
        #expect(a["headHash"] as? String == b["headHash"] as? String)
        #expect(a["events"] as? Int == b["events"] as? Int)
        #expect(try Harness.validate(swift.stdout, against: "audit-verify.schema.json").status == 0)
        #expect(try Harness.validate(python.stdout, against: "audit-verify.schema.json").status == 0)

        let human = try await Harness.reel(["audit", "verify"], environment: ["REEL_DATA_DIR": dir])
        #expect(human.status == 0 && human.stdout.hasPrefix("intact: "))
    }

    @Test func envelopesInJSONMatchTheirSchema() async throws {
        let dir = temporaryDirectory()
        // The tour keeps to its own LMDB store, whatever store the shell names (here none that
        // answers: a command that reached for it would fail).
        let demo = try await Harness.reel(["demo", "--json", "--data-dir", dir], environment: ["REEL_STORE": "postgres://nobody@127.0.0.1:1/none"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let checked = try Harness.validate(demo.stdout, against: "envelope.schema.json")
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("valid "))
    }

    @Test func auditVerifyWithoutALedgerSaysNotFound() async throws {
        let output = try await Harness.reel(["audit", "verify", "--data-dir", temporaryDirectory() + "/nothing"])
        #expect(output.status == 66)
        #expect(output.stderr.hasPrefix("reel: no ledger in "))
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(output.stdout.isEmpty)
    }

    @Test func aBadArgumentIsAUsageError() async throws {
        let dir = temporaryDirectory()
        _ = try await Harness.reel(["demo", "--data-dir", dir])
        let output = try await Harness.reel(["audit", "verify", "--expect-head", "zz", "--data-dir", dir])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--expect-head takes a SHA-256 hash"))
    }

    @Test func backupWritesAVerifiedCompactCopyAndRefusesANonEmptyTarget() async throws {
        let dir = temporaryDirectory()
        #expect(try await Harness.reel(["demo", "--data-dir", dir]).status == 0)
        let target = temporaryDirectory() + "/backup"
        let backup = try await Harness.reel(["backup", target, "--json", "--data-dir", dir])
        #expect(backup.status == 0, "\(backup.stderr)")
        let copy = try await Harness.reel(["audit", "verify", "--json", "--data-dir", target])
        #expect(try Harness.json(copy.stdout)["headHash"] as? String == (try Harness.json(backup.stdout)["headHash"] as? String))
        let again = try await Harness.reel(["backup", target, "--data-dir", dir])
        #expect(again.status == 64)
        #expect(again.stderr.contains("is not an empty directory"))
    }
}

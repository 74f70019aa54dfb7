import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// A second Reel as a C2SP witness (`reel serve --witness FILE`) of a ledger: `reel audit witness`
/// has it cosign the ledger's checkpoints as the ledger grows (a consistency proof each time from
/// the size it last cosigned, kept across the witness's restart); the cosignature shows in `reel
/// audit checkpoint` and in proofs made meanwhile, and checks in Reel (`check-proof --witness`)
/// and, with Go's crypto/ed25519 and `sumdb/note`, in `Tools/tlogcheck cosigned`. A copy of the
/// ledger that went its own way, one rolled back, a log the witness does not know, a checkpoint
/// signed by another key and requests that are not one are refused as tlog-witness says.
@Suite struct WitnessTests {
    /// The witness: a service over a data directory and a keyring of its own, witnessing the logs
    /// whose keys are `keys`; its cosigner key.
    static func witness(for keys: [String], home: Home = Self.witnessHome()) async throws -> (service: ServiceProcess, key: String, home: Home) {
        let logs = home.data + "/../witnessed-\(UInt32.random(in: 0...UInt32.max)).txt"
        try ("# the ledgers this Reel witnesses\n\n" + keys.joined(separator: "\n") + "\n").write(toFile: logs, atomically: true, encoding: .utf8)
        let key = try await home.reel(["audit", "witness-key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("reel.witness/"), "\(key)")
        return (try await ServiceProcess.start(home, environment: ["REEL_WITNESS_LOGS": logs]), key, home)
    }

    static func witnessHome() -> Home {
        Home(environment: ["REEL_KEYRING": temporaryDirectory("witness-keyring")])
    }

    static func key(_ ledger: LedgerHome) async throws -> String {
        try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aWitnessCosignsAsTheLedgerGrowsAndProofsCarryItsCosignature() async throws {
        let ledger = LedgerHome()
        for user in ["ann", "bob", "cy"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        let key = try await Self.key(ledger)
        var (witness, witnessKey, home) = try await Self.witness(for: [key])

        let cosigned = try await ledger.reel(["audit", "witness", witness.url, "--key", witnessKey])
        #expect(cosigned.status == 0 && cosigned.stdout.hasPrefix("cosigned by reel.witness/") && cosigned.stdout.contains(" at 6 events"), "\(cosigned.stdout)\(cosigned.stderr)")
        let checkpoint = try await ledger.reel(["audit", "checkpoint"])
        #expect(checkpoint.stdout.split(separator: "\n").filter { $0.hasPrefix("\u{2014} ") }.count == 2, "\(checkpoint.stdout)")
        let noteFile = ledger.dir + "/cosigned.checkpoint"
        try checkpoint.stdout.write(toFile: noteFile, atomically: true, encoding: .utf8)
        let proof = ledger.dir + "/cosigned.tlog-proof"
        #expect(try await ledger.reel(["audit", "prove", "2", "--out", proof]).status == 0)
        let checked = try await ledger.reel(["audit", "check-proof", proof, "--key", key, "--witness", witnessKey])
        #expect(checked.status == 0 && checked.stdout.contains("cosigned by the witness"), "\(checked.stdout)\(checked.stderr)")
        let go = try await GoTlogCheck.cosigned([noteFile, proof], key: key, witness: witnessKey)
        #expect(go.status == 0 && go.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok ") && $0.contains(" of 6 cosigned by reel.witness/") }, "\(go.stdout)\(go.stderr)")
        // Go's note still opens the checkpoint with the log's key alone (the cosignature is a line it leaves).
        #expect(try await GoTlogCheck.proofs([proof], key: key).status == 0)
        // The witness serves what it cosigned, for monitors.
        let origin = String(checkpoint.stdout.prefix { $0 != "\n" })
        let originHash = try await Harness.run("/bin/sh", ["-c", "printf %s \"$0\" | sha256sum", origin]).stdout.prefix(64)
        let served = try await witness.request(.GET, "/witness/\(originHash)/checkpoint")
        #expect(served.status == 200 && served.text.hasPrefix(origin + "\n6\n"), "\(served.status) \(served.text)")

        // One byte of the cosignature changed: Reel and Go refuse; another witness's key finds none.
        let line = try #require(checkpoint.stdout.split(separator: "\n").last.map(String.init))
        let damaged = ledger.dir + "/damaged.checkpoint"
        try checkpoint.stdout.replacingOccurrences(of: line, with: String(line.dropLast(6)) + (line.hasSuffix("AAAA==") ? "BBBB==" : "AAAA==")).write(toFile: damaged, atomically: true, encoding: .utf8)
        #expect(try await GoTlogCheck.cosigned([damaged], key: key, witness: witnessKey).status == 1)
        let otherWitness = try await Self.witnessHome().reel(["audit", "witness-key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let unwitnessed = try await ledger.reel(["audit", "check-proof", proof, "--key", key, "--witness", otherWitness])
        #expect(unwitnessed.status == 65 && unwitnessed.stderr.contains("no cosignature by the witness"), "\(unwitnessed.stderr)")
        let wrongKey = try await ledger.reel(["audit", "witness", witness.url, "--key", otherWitness])
        #expect(wrongKey.status == 65 && wrongKey.stderr.contains("no cosignature by"), "\(wrongKey.stderr)")
        let notAKey = try await ledger.reel(["audit", "witness", witness.url, "--key", key])
        #expect(notAKey.status == 64, "\(notAKey.stderr)")
        #expect(try await ledger.reel(["audit", "check-proof", proof, "--key", witnessKey]).status == 64, "a witness's key is not the log's")
        #expect(try await ledger.reel(["audit", "witness", witness.url + "/?x=1", "--key", witnessKey]).status == 64)
        // A port that is no port: one line, never a trap (the transport refuses it for TMDb too).
        let noPort = try await ledger.reel(["audit", "witness", "http://127.0.0.1:99999/", "--key", witnessKey])
        #expect(noPort.status == 64 && noPort.stderr.split(separator: "\n").count == 1, "\(noPort.status) \(noPort.stderr)")
        let tmdb = try await ledger.reel(
            ["show", "movie", "550"], environment: ["TMDB_API_TOKEN": "x", "REEL_OFFLINE": "", "REEL_TMDB_BASE_URL": "http://127.0.0.1:99999/3"])
        #expect(tmdb.status == 69 && tmdb.stderr.contains("not a port"), "\(tmdb.status) \(tmdb.stderr)")

        // A copy taken now goes its own way later.
        let fork = LedgerHome()
        #expect(try await Harness.run("cp", ["-a", ledger.dir + "/.", fork.dir]).status == 0)
        // The ledger grows: the checkpoint is no longer the cosigned one, and says so; cosigned again
        // from 6 with a consistency proof.
        for user in ["dee", "eve"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        let grown = try await ledger.reel(["audit", "checkpoint"])
        #expect(grown.stdout.split(separator: "\n").filter { $0.hasPrefix("\u{2014} ") }.count == 1 && grown.stderr.contains("last cosigned this log at 6 events"), "\(grown)")
        #expect(try await ledger.reel(["audit", "witness", witness.url, "--key", witnessKey]).stdout.contains(" at 10 events"))
        // The witness restarted: it kept what it cosigned.
        _ = try await witness.stopped()
        (witness, _, home) = try await Self.witness(for: [key], home: home)
        defer { witness.stop() }
        #expect(try await ledger.reel(["settings", "name", "fay"], user: "fay").status == 0)
        let again = try await ledger.reel(["audit", "witness", witness.url, "--key", witnessKey, "--json"])
        let againSize = try Harness.json(again.stdout)["size"] as? Int
        #expect(again.status == 0 && againSize == 12, "\(again.stdout)\(again.stderr)")
        #expect(try Harness.validate(again.stdout, against: "cli/audit-witness.schema.json").status == 0)
        let json = try await ledger.json(["audit", "checkpoint"], schema: "audit-checkpoint.schema.json")
        #expect(try await home.json(["audit", "witness-key"], schema: "audit-key.schema.json")["key"] as? String == witnessKey)
        #expect((json["cosignatures"] as? [[String: Any]])?.map { $0["current"] as? Bool } == [true], "\(json)")

        // The fork, rolled back from the witness's view (6 events, the witness saw 12): refused.
        let behind = try await fork.reel(["audit", "witness", witness.url, "--key", witnessKey])
        #expect(behind.status == 65 && behind.stderr.contains("more than the ledger holds"), "\(behind.stderr)")
        // The fork grown past it with other events: the witness finds it inconsistent (422).
        for user in ["gus", "hal", "ivy", "jo"] { #expect(try await fork.reel(["settings", "name", user], user: user).status == 0) }
        let forked = try await fork.reel(["audit", "witness", witness.url, "--key", witnessKey])
        #expect(forked.status == 65 && forked.stderr.contains("HTTP 422"), "\(forked.stderr)")
        // The witness's key file gone: said, never a new witness made in its place.
        let keyFile = try #require(home.environment["REEL_KEYRING"]) + "/reel.witness.cosigner-key"
        try FileManager.default.moveItem(atPath: keyFile, toPath: keyFile + ".saved")
        let lost = try await home.reel(["audit", "witness-key"])
        #expect(lost.status == 69 && lost.stderr.contains("restore it from the keyring's backup"), "\(lost.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyFile))
        try FileManager.default.moveItem(atPath: keyFile + ".saved", toPath: keyFile)
        // A ledger the witness does not witness.
        let stranger = LedgerHome()
        _ = try await stranger.reel(["settings", "name", "Zed"], user: "zed")
        let unknown = try await stranger.reel(["audit", "witness", witness.url, "--key", witnessKey])
        #expect(unknown.status == 69 && unknown.stderr.contains("HTTP 404"), "\(unknown.stderr)")
    }

    /// The protocol's answers to what is not a proper request, over HTTP: a checkpoint signed by a
    /// key the witness does not trust for its origin (403), text that is not a request (400), an
    /// old size above the checkpoint's (400), a first checkpoint sent with a proof (422), the
    /// wrong old size (409, the size as `text/x.tlog.size`), 64 proof lines (400), a line of the
    /// log's key that does not verify beside one that does (403); lines the witness does not know
    /// are not kept in its record; and a service that is no witness (404).
    @Test func whatIsNotAProperRequestGetsTheProtocolsAnswer() async throws {
        let ledger = LedgerHome()
        for user in ["ann", "bob"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        // A copy taken before the ledger's key was first used: signed there with another key of
        // the same name, under the same origin.
        var other = LedgerHome()
        other.keyring = other.dir + "/keyring"
        try FileManager.default.createDirectory(atPath: other.dir + "/keyring", withIntermediateDirectories: true)
        #expect(try await Harness.run("cp", ["-a", ledger.dir + "/.", other.dir]).status == 0)
        let key = try await Self.key(ledger)
        let (witness, _, _) = try await Self.witness(for: [key])
        defer { witness.stop() }
        let note = try await ledger.reel(["audit", "checkpoint"]).stdout
        func post(_ text: String) async throws -> ServiceProcess.Answer {
            try await witness.request(.POST, "/add-checkpoint", body: Array(text.utf8), contentType: "text/plain")
        }
        // Signed by another key under this origin.
        let origin = String(note.prefix { $0 != "\n" })
        let forgedKeyFile = other.keyring! + "/" + origin.replacingOccurrences(of: "/", with: "-") + ".note-key"
        _ = try await other.reel(["audit", "key"])
        #expect(FileManager.default.fileExists(atPath: forgedKeyFile))
        let forged = try await other.reel(["audit", "checkpoint"]).stdout
        #expect(try await post("old 0\n\n" + forged).status == 403)
        for text in ["", "old 01\n\n" + note, "new 0\n\n" + note, "old 0\n" + note, "old 5\n\n" + note] {
            let answer = try await post(text)
            #expect(answer.status == 400 && answer.header("Content-Type") == "application/problem+json", "\(text.prefix(12)): \(answer.status)")
        }
        #expect(try await post("old 0\nJbn0h/VtVrhL8nHFe6f3JLTyoBzw16D8OCH6b/Ym6WY=\n\n" + note).status == 422)
        let hashes = String(repeating: "Jbn0h/VtVrhL8nHFe6f3JLTyoBzw16D8OCH6b/Ym6WY=\n", count: 64)
        #expect(try await post("old 1\n" + hashes + "\n" + note).status == 400, "64 proof lines")
        // A second line of the log's key that does not verify: malformed, whatever else verifies.
        let logLine = try #require(note.split(separator: "\n").last.map(String.init))
        let badLine = String(logLine.dropLast(8)) + (logLine.hasSuffix("AAAAAA==") ? "BBBBBB==" : "AAAAAA==")
        #expect(try await post("old 0\n\n" + note + badLine + "\n").status == 403)
        // Lines the witness does not know are not kept: the record is the body, the log's line, its own.
        let stray = "\u{2014} someone.else/x " + Data(repeating: 7, count: 68).base64EncodedString() + "\n"
        #expect(try await post("old 0\n\n" + note + stray).status == 200)
        let originHash = try await Harness.run("/bin/sh", ["-c", "printf %s \"$0\" | sha256sum", origin]).stdout.prefix(64)
        let kept = try await witness.request(.GET, "/witness/\(originHash)/checkpoint").text
        #expect(!kept.contains("someone.else") && kept.hasPrefix(note) && kept.split(separator: "\n").filter { $0.hasPrefix("\u{2014} ") }.count == 2, "\(kept)")
        let conflict = try await post("old 1\n\n" + note)
        #expect(conflict.status == 409 && conflict.text == "4\n" && conflict.header("Content-Type") == "text/x.tlog.size", "\(conflict.status) \(conflict.text)")
        #expect(try await post("old 4\n\n" + note).status == 200, "the same checkpoint again")

        let plain = try await ServiceProcess.start(Home())
        defer { plain.stop() }
        #expect(try await plain.request(.POST, "/add-checkpoint", body: Array(("old 0\n\n" + note).utf8), contentType: "text/plain").status == 404)
    }
}

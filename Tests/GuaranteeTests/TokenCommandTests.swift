import EndToEndSupport
import Foundation
import Reel
import Stores
import ReelTestSupport
import Testing

/// `reel token create|list|revoke` through the built binary: the secret printed once and kept in
/// no file, lists without secrets, revocation (seen at once by another process), the tokens of a
/// deleted account gone with it, a damaged store in one line.
@Suite struct TokenCommandTests {
    typealias Ledger = LedgerCommandTests.Ledger
    typealias Fault = DamagedFileTests.Fault

    static let secretPattern = #"^reel_[A-Za-z0-9_-]{43}$"#

    /// Makes a token for `user` with `--json` (validated), returning its id and secret.
    static func create(_ ledger: Ledger, _ user: String) async throws -> (id: String, secret: String) {
        let made = try await ledger.json(["token", "create"], user: user, schema: "token-create.schema.json")
        return (made["id"] as? String ?? "?", made["token"] as? String ?? "?")
    }

    /// `token list --json` (validated), as its entries.
    static func list(_ ledger: Ledger, _ arguments: [String] = []) async throws -> [[String: Any]] {
        let out = try await ledger.reel(["token", "list", "--json"] + arguments)
        #expect(out.status == 0, "\(out.stderr)")
        let checked = try Harness.validate(out.stdout, against: "cli/token-list.schema.json")
        #expect(checked.status == 0, "\(checked.stderr)")
        return Harness.tokens(out.stdout) ?? []
    }

    /// The forms of a secret someone could search a file for: its text, its base64url part, its
    /// 32 bytes, their hex (either case) and standard base64.
    static func forms(of secret: String) -> [(String, [UInt8])] {
        var base64 = secret.dropFirst(5).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += "="
        let raw = Array(Data(base64Encoded: base64) ?? Data())
        #expect(raw.count == 32, "\(secret)")
        let hex = raw.map { String(format: "%02x", $0) }.joined()
        return [
            ("the secret", Array(secret.utf8)), ("its base64url", Array(secret.dropFirst(5).utf8)), ("its bytes", raw),
            ("its hex", Array(hex.utf8)), ("its HEX", Array(hex.uppercased().utf8)), ("its base64", Array(base64.dropLast().utf8)),
        ]
    }

    @Test func createPrintsTheSecretOnceAndNothingElseOnStdout() async throws {
        let ledger = Ledger()
        let out = try await ledger.reel(["token", "create"], user: "ann")
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line: \(out.stdout.debugDescription)")
        let secret = String(lines[0])
        #expect(secret.range(of: Self.secretPattern, options: .regularExpression) != nil, "\(secret)")
        let note = out.stderr.split(separator: "\n")
        #expect(note.count == 1 && note[0].hasPrefix("reel: note: ") && note[0].contains("shown only once"), "\(out.stderr)")
        #expect(note[0].contains("'ann'") && note[0].contains("opened now") && !out.stderr.contains(secret), "\(out.stderr)")

        // The account was opened by it: one event.
        await #expect(try ledger.eventCount() == 1)
        let again = try await Self.create(ledger, "ann")
        #expect(again.secret.range(of: Self.secretPattern, options: .regularExpression) != nil && again.secret != secret)
        await #expect(try ledger.eventCount() == 1)
        let quiet = try await ledger.reel(["token", "create", "--quiet"], user: "ann")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")

        // Listed, three times, never with a secret.
        let listed = try await Self.list(ledger)
        #expect(listed.count == 3 && listed.allSatisfy { $0["user"] as? String == "ann" && $0["revokedAt"] is NSNull }, "\(listed)")
        #expect(listed[1]["id"] as? String == again.id)
        let text = try await ledger.reel(["token", "list"])
        #expect(text.status == 0 && text.stdout.hasPrefix("ID"), "\(text.stdout)")
        #expect(text.stdout.split(separator: "\n").count == 4 && text.stdout.contains(again.id), "\(text.stdout)")
        for secret in [secret, again.secret, String(quiet.stdout.dropLast())] {
            for output in [text.stdout, try await ledger.reel(["token", "list", "--json"]).stdout] {
                #expect(!output.contains(secret) && !output.contains(secret.dropFirst(5)), "a secret is listed: \(output)")
            }
        }
    }

    /// A secret that could not be written is lost: the token exists, and the line says how to end it.
    @Test func aSecretLostWithTheOutputIsSaidWithHowToRevokeIt() async throws {
        let ledger = Ledger()
        let run = try OutputFailureTests.run(["token", "create", "--user", "ann"], data: ledger.dir, stdout: "/dev/full")
        #expect(run.status == 74 && !run.signalled, "\(run.stderr)")
        let id = try await #require(try Self.list(ledger).first?["id"] as? String)
        #expect(run.problems.count == 1 && run.problems[0].contains("No space left on device"), "\(run.stderr)")
        #expect(run.problems.first?.contains("token \(id) was made, but its secret is lost with the output: revoke it with 'reel token revoke \(id)'") == true, "\(run.stderr)")
    }

    @Test func listIsEveryAccountsOrOnesAndNeverNarrowedByREELUSER() async throws {
        let ledger = Ledger()
        let ann = try await Self.create(ledger, "ann")
        let ben = try await Self.create(ledger, "ben")
        await #expect(try Self.list(ledger).compactMap { $0["id"] as? String } == [ann.id, ben.id])
        await #expect(try Self.list(ledger, ["--user", "ben"]).compactMap { $0["id"] as? String } == [ben.id])
        await #expect(try Self.list(ledger, ["--user", "nobody"]).isEmpty)
        let withEnvironment = try await ledger.reel(["token", "list", "--json"], user: "ann")
        #expect(withEnvironment.stdout.contains(ben.id), "REEL_USER does not narrow the list: \(withEnvironment.stdout)")
        #expect(try await ledger.reel(["token", "list", "--user", "nobody"]).stdout == "no tokens for 'nobody'\n")
        await #expect(try Ledger().reel(["token", "list"]).stdout.hasPrefix("no tokens yet"))
        await #expect(try Self.list(Ledger()).isEmpty)
    }

    @Test func revokeEndsATokenOnceAndSaysWhichIdsAreUnknown() async throws {
        let ledger = Ledger()
        let made = try await Self.create(ledger, "ann")
        let revoked = try await ledger.json(["token", "revoke", made.id], schema: "token-revoke.schema.json")
        #expect(revoked["id"] as? String == made.id && revoked["user"] as? String == "ann")
        let time = try #require(revoked["revokedAt"] as? String)
        // Again: exit 0, the first time kept.
        let again = try await ledger.json(["token", "revoke", made.id], schema: "token-revoke.schema.json")
        #expect(again["revokedAt"] as? String == time)
        let text = try await ledger.reel(["token", "revoke", made.id])
        #expect(text.status == 0 && text.stdout.hasPrefix("revoked token \(made.id) of the account 'ann' (on "), "\(text.stdout)")
        await #expect(try Self.list(ledger).first?["revokedAt"] as? String == time)
        #expect(try await ledger.reel(["token", "list"]).stdout.contains(String(time.prefix(10))))

        try await ledger.fails(["token", "revoke", "0123456789ab"], status: 66, "there is no token '0123456789ab'")
        try await ledger.fails(["token", "revoke", "NOT-AN-ID"], status: 64, "a token id is 12 lowercase hex digits")
        let other = try await Self.create(ledger, "ann")
        let pasted = try await ledger.reel(["token", "revoke", other.secret])
        #expect(pasted.status == 64 && !pasted.stderr.contains(other.secret) && !pasted.stderr.contains(other.secret.dropFirst(5)), "\(pasted.stderr)")
        await #expect(try Self.list(ledger).last?["revokedAt"] is NSNull, "nothing was revoked")
    }

    @Test func noFileUnderTheDataDirectoryHoldsASecret() async throws {
        let ledger = Ledger()
        let kept = try await Self.create(ledger, "zq-token-owner-9")
        let revoked = try await Self.create(ledger, "zq-token-owner-9")
        #expect(try await ledger.reel(["token", "revoke", revoked.id]).status == 0)
        let files = try AccountDeletionTests.files(under: ledger.dir)
        #expect(files.contains("tokens/data.mdb"), "\(files)")
        for secret in [kept.secret, revoked.secret] {
            for (what, bytes) in Self.forms(of: secret) {
                #expect(try AccountDeletionTests.files(in: ledger, containing: bytes) == [], "\(what) is in these files")
            }
        }
        // The scan sees what is there (the ids are stored), and the handle is sealed in tokens/.
        #expect(try AccountDeletionTests.files(in: ledger, containing: Array(kept.id.utf8)) == ["tokens/data.mdb"])
        #expect(try AccountDeletionTests.files(in: ledger, containing: Array("zq-token-owner-9".utf8)).filter { $0.hasPrefix("tokens/") } == [])
    }

    /// What the service does on each request, in this process, against changes the binary makes
    /// in others: a revocation and a deletion count at the next check.
    @Test func anotherProcessesRevocationAndDeletionCountAtTheNextCheck() async throws {
        let ledger = Ledger()
        let app = Application(.init(dataDirectory: ledger.dir, offline: true, environment: [:]))
        let first = try await Self.create(ledger, "ann")
        let second = try await Self.create(ledger, "ann")
        #expect(try app.authenticate(bearer: first.secret)?.id == first.id)
        #expect(try app.authenticate(bearer: first.secret)?.handle.value == "ann")
        #expect(try await ledger.reel(["token", "revoke", first.id]).status == 0)
        #expect(try app.authenticate(bearer: first.secret) == nil)
        #expect(try app.authenticate(bearer: second.secret)?.id == second.id)
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: "ann").status == 0)
        #expect(try app.authenticate(bearer: second.secret) == nil)
    }

    @Test func deletingTheAccountRemovesItsTokensAndLeavesItsHandleInNoFile() async throws {
        let ledger = Ledger()
        let handle = "zq-handle-8"
        let doomed = try await Self.create(ledger, handle)
        let revoked = try await Self.create(ledger, handle)
        #expect(try await ledger.reel(["token", "revoke", revoked.id]).status == 0)
        let other = try await Self.create(ledger, "ann")
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: handle).status == 0)

        let deleted = try await ledger.json(["account", "delete", "--yes"], user: handle, schema: "account-delete.schema.json")
        #expect(deleted["keyDestroyed"] as? Bool == true)
        await #expect(try Self.list(ledger).compactMap { $0["id"] as? String } == [other.id])
        await #expect(try Self.list(ledger, ["--user", handle]).isEmpty)
        try await ledger.fails(["token", "revoke", doomed.id], status: 66, "there is no token '\(doomed.id)'")
        #expect(try AccountDeletionTests.files(in: ledger, containing: Array(handle.utf8)) == [], "the handle is still in these files")
        #expect(try AccountDeletionTests.files(in: ledger, containing: Array(doomed.id.utf8)).filter { $0 != "tokens/data.mdb" } == [])

        // The freed handle's next account has tokens of its own; the old ones reach nothing.
        let fresh = try await Self.create(ledger, handle)
        await #expect(try Self.list(ledger, ["--user", handle]).compactMap { $0["id"] as? String } == [fresh.id])
        let app = Application(.init(dataDirectory: ledger.dir, offline: true, environment: [:]))
        #expect(try app.authenticate(bearer: doomed.secret) == nil)
        #expect(try app.authenticate(bearer: fresh.secret)?.id == fresh.id)
    }

    @Test(arguments: Fault.allCases)
    func aDamagedTokenStoreIsOneLineNamingItNeverASignal(_ fault: Fault) async throws {
        let ledger = Ledger()
        let made = try await Self.create(ledger, "ann")
        _ = try await Self.create(ledger, "ben")
        try fault.apply(to: ledger.dir + "/tokens/data.mdb")
        for arguments in [["token", "list"], ["token", "create"], ["token", "revoke", made.id], ["account", "delete", "--yes"]] {
            let out = try await ledger.reel(arguments, user: "ann")
            #expect(!out.stderr.contains("Backtrac") && !out.stderr.contains("Program crashed"), "\(fault) \(arguments): \(out.stderr)")
            // Damage in pages a command does not read goes unseen (LMDB keeps no checksums);
            // what is seen is one line naming the token store and the cure, and 65.
            guard fault.cutsShort || out.status != 0 else { continue }
            #expect(out.status == 65, "\(fault) \(arguments): \(out.stderr)")
            let lines = out.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("reel: "), "\(fault) \(arguments): \(out.stderr)")
            #expect(out.stderr.contains("tokens/data.mdb") && out.stderr.contains("remove \(ledger.dir)/tokens"), "\(fault) \(arguments): \(out.stderr)")
            #expect(!out.stderr.contains("ledger/data.mdb"), "\(fault) \(arguments): \(out.stderr)")
        }
        // A store cut short stops the deletion before anything is deleted: its tokens could not be revoked.
        if fault.cutsShort {
            let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
            #expect(accounts.count == 2 && accounts.allSatisfy { $0["status"] as? String == "open" }, "\(fault): \(accounts)")
        }
    }
}

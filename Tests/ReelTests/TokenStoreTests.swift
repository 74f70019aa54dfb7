import Failures
import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

#if canImport(Glibc)
import Glibc
#endif

/// Account tokens through `Application` over a temporary data directory: made (opening the
/// account), checked, listed, revoked, removed with their account; a secret kept in no file and
/// a handle in none in the clear; a damaged store said in one line naming its file.
@Suite struct TokenStoreTests {
    let ann = try! AccountHandle("ann")
    let ben = try! AccountHandle("ben")

    static func application(_ name: String = #function, in directory: String? = nil) -> Application {
        Application(.init(dataDirectory: directory ?? temporaryDirectory(name), environment: ["HOME": temporaryDirectory(name + "-home")]))
    }

    /// The 32 bytes a secret's text carries (base64url after `reel_`), decoded here without Reel.
    static func rawBytes(_ secret: String) -> [UInt8] {
        var text = secret.dropFirst(5).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Array(Data(base64Encoded: text) ?? Data())
    }

    /// Every regular file under `directory`, with its bytes.
    static func files(under directory: String) throws -> [(String, Data)] {
        let names = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return try names.sorted().compactMap { name in
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return (name, try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    @Test func aTokenIsMadeCheckedListedAndRevoked() throws {
        let app = Self.application()
        let issued = try app.createToken(for: ann)
        #expect(issued.secret.range(of: #"^reel_[A-Za-z0-9_-]{43}$"#, options: .regularExpression) != nil, "\(issued.secret)")
        #expect(Self.rawBytes(issued.secret).count == 32)
        #expect(issued.token.id.range(of: #"^[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(issued.token.id)")
        #expect(issued.openedAccount && issued.token.handle == ann && !issued.token.isRevoked)
        // One event opened the account, through the domain; it is the token's stream.
        #expect(try app.verifyLedger().eventsChecked == 1)
        #expect(try app.account(ann).stream == issued.token.stream)

        let again = try app.createToken(for: ann)
        #expect(!again.openedAccount && again.secret != issued.secret && again.token.id != issued.token.id)
        #expect(try app.verifyLedger().eventsChecked == 1, "an open account is not opened again")
        let benToken = try app.createToken(for: ben)

        #expect(try app.authenticate(bearer: issued.secret) == issued.token)
        #expect(try app.authenticate(bearer: again.secret) == again.token)
        #expect(try app.authenticate(bearer: benToken.secret)?.handle == ben)
        #expect(try app.tokens(of: nil) == [issued.token, again.token, benToken.token], "oldest first")
        #expect(try app.tokens(of: ann) == [issued.token, again.token])
        #expect(try app.tokens(of: try AccountHandle("nobody")) == [])

        let revoked = try app.revokeToken(issued.token.id)
        #expect(revoked.id == issued.token.id && revoked.isRevoked && revoked.handle == ann)
        #expect(try app.authenticate(bearer: issued.secret) == nil)
        #expect(try app.authenticate(bearer: again.secret) == again.token, "the account's other token still works")
        #expect(try app.tokens(of: ann) == [revoked, again.token], "revoked tokens stay listed")
        // Revoking twice is no mistake and keeps the first time.
        #expect(try app.revokeToken(issued.token.id) == revoked)
        #expect(throws: Failure(.notFound, "there is no token '0123456789ab'")) { try app.revokeToken("0123456789ab") }
    }

    @Test func whatIsNotALiveTokensSecretAuthenticatesNobody() throws {
        let app = Self.application()
        let secret = try app.createToken(for: ann).secret
        var lastChanged = secret
        lastChanged.removeLast()
        let flipped = lastChanged + (secret.last == "A" ? "E" : "A")
        // The same 32 bytes spelt with the spare bits of the last character set: not the token.
        let spare = lastChanged + String(UnicodeScalar(secret.unicodeScalars.last!.value + 1)!)
        for text in [
            "", "reel_", "Bearer " + secret, secret + "\n", " " + secret, secret.uppercased(), "reel-" + secret.dropFirst(5),
            flipped, spare, String(secret.dropLast()), secret + "A", "reel_" + String(repeating: "A", count: 43),
            "reel_" + String(repeating: "=", count: 43),
        ] {
            #expect(try app.authenticate(bearer: text) == nil, "\(text.debugDescription)")
        }
        #expect(try app.authenticate(bearer: secret) != nil)
    }

    @Test func noStoreIsMadeToLookForTokens() throws {
        let directory = temporaryDirectory()
        let app = Self.application(in: directory)
        #expect(try app.authenticate(bearer: "reel_" + String(repeating: "A", count: 43)) == nil)
        #expect(try app.tokens(of: nil) == [])
        #expect(throws: Failure(.notFound, "there is no token '0123456789ab'")) { try app.revokeToken("0123456789ab") }
        #expect(!FileManager.default.fileExists(atPath: directory + "/tokens"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/ledger"))
    }

    @Test func aMalformedIdIsAUsageMistakeThatNeverQuotesIt() throws {
        let app = Self.application()
        let secret = try app.createToken(for: ann).secret
        for id in [secret, "ABCDEF012345", "0123", "0123456789abc", "0123456789ag", ""] {
            do {
                _ = try app.revokeToken(id)
                Issue.record("\(id) was taken")
            } catch let failure as Failure {
                #expect(failure.kind == .usage)
                #expect(id.isEmpty || !failure.summary.contains(id), "\(failure.summary)")
            }
        }
        #expect(try app.authenticate(bearer: secret) != nil, "nothing was revoked")
    }

    /// A record found is answered again only while the store has no later commit: a revocation
    /// committed through another `Application` (as another process would) counts from the next
    /// check, though the token was just found.
    @Test func aRevocationByAnotherApplicationCountsAtTheNextCheck() throws {
        let directory = temporaryDirectory()
        let server = Self.application(in: directory)
        let issued = try server.createToken(for: ann)
        #expect(try server.authenticate(bearer: issued.secret) != nil)
        let operatorApp = Self.application(in: directory)
        _ = try operatorApp.revokeToken(issued.token.id)
        #expect(try server.authenticate(bearer: issued.secret) == nil)
        // And a token made by the other one is known at once.
        let made = try operatorApp.createToken(for: ben)
        #expect(try server.authenticate(bearer: made.secret) == made.token)
        #expect(try server.tokens(of: nil).map(\.id) == [issued.token.id, made.token.id])
    }

    /// A service started on an empty data directory found no ledger then; the tokens made since
    /// (with the ledger they opened) are listed and revoked all the same.
    @Test func tokensMadeAfterThisProcessFoundNoLedgerAreListed() throws {
        let directory = temporaryDirectory()
        let server = Self.application(in: directory)
        #expect(try server.account(ann).isUnopened)
        let made = try Self.application(in: directory).createToken(for: ann)
        #expect(try server.authenticate(bearer: made.secret) == made.token)
        #expect(try server.tokens(of: nil) == [made.token])
        #expect(try server.revokeToken(made.token.id).isRevoked)
    }

    /// An operator ends every token by removing `tokens/`: a process that has the store open sees
    /// it gone at its next check, and the store made afresh after it.
    @Test func removingTheStoreEndsEveryTokenAtTheNextCheck() throws {
        let directory = temporaryDirectory()
        let server = Self.application(in: directory)
        let old = try server.createToken(for: ann)
        #expect(try server.authenticate(bearer: old.secret) == old.token)
        try FileManager.default.removeItem(atPath: directory + "/tokens")
        #expect(try server.authenticate(bearer: old.secret) == nil)
        #expect(try server.tokens(of: nil) == [])
        let fresh = try Self.application(in: directory).createToken(for: ann)
        #expect(!fresh.openedAccount)
        #expect(try server.authenticate(bearer: fresh.secret) == fresh.token)
        #expect(try server.authenticate(bearer: old.secret) == nil)
        #expect(try server.tokens(of: ann) == [fresh.token])
    }

    @Test func theSecretIsInNoFileAndTheHandleInNoneInTheClear() throws {
        let directory = temporaryDirectory()
        let app = Self.application(in: directory)
        let handle = try AccountHandle("zq-token-owner-3")
        let issued = try app.createToken(for: handle)
        _ = try app.revokeToken(try app.createToken(for: handle).token.id)
        let raw = Self.rawBytes(issued.secret)
        let hex = raw.map { String(format: "%02x", $0) }.joined()
        let forms: [(String, [UInt8])] = [
            ("the secret", Array(issued.secret.utf8)), ("its base64url", Array(issued.secret.dropFirst(5).utf8)),
            ("its bytes", raw), ("its hex", Array(hex.utf8)), ("its HEX", Array(hex.uppercased().utf8)),
            ("its base64", Array(Data(raw).base64EncodedString().dropLast().utf8)),
        ]
        let files = try Self.files(under: directory)
        #expect(files.contains { $0.0 == "tokens/data.mdb" }, "\(files.map(\.0))")
        for (what, bytes) in forms {
            #expect(raw.count == 32 && bytes.count >= 32)
            for (name, data) in files {
                #expect(data.range(of: Data(bytes)) == nil, "\(what) is in \(name)")
            }
        }
        for (name, data) in files where name.hasPrefix("tokens/") {
            #expect(data.range(of: Data(handle.value.utf8)) == nil, "the handle is in \(name) in the clear")
        }
        // The scan sees what is there: the token's id is stored.
        #expect(files.contains { $0.1.range(of: Data(issued.token.id.utf8)) != nil })
    }

    @Test func theStoreIsPrivateToItsOwner() throws {
        let directory = temporaryDirectory()
        _ = try Self.application(in: directory).createToken(for: ann)
        var info = stat()
        #expect(stat(directory + "/tokens", &info) == 0 && info.st_mode & 0o777 == 0o700)
        for file in ["data.mdb", "lock.mdb"] {
            #expect(stat(directory + "/tokens/" + file, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(file)")
        }
    }

    // MARK: - Deletion

    @Test func deletingTheAccountRemovesItsTokensAndANewAccountDoesNotInheritThem() throws {
        let app = Self.application()
        let first = try app.createToken(for: ann)
        let second = try app.createToken(for: ann)
        let benToken = try app.createToken(for: ben)
        _ = try app.revokeToken(second.token.id)
        // Revoked before the deletion's commit (so no crash after it leaves one live), and the
        // records removed after it.
        var beforeTheCommit: [AccessToken?] = []
        _ = try app.deleteAccount(ann) { step in
            if step == .appending { beforeTheCommit = [first.secret, second.secret].map { try? app.authenticate(bearer: $0) } }
        }
        #expect(beforeTheCommit == [nil, nil])
        let store = try #require(try TokenStore.open(in: app.configuration.dataDirectory, create: false))
        #expect(try store.all().map(\.id) == [benToken.token.id], "the deleted account's records are gone")
        #expect(try app.authenticate(bearer: first.secret) == nil)
        #expect(try app.tokens(of: nil) == [benToken.token])
        #expect(try app.tokens(of: ann) == [])
        #expect(throws: Failure(.notFound, "there is no token '\(first.token.id)'")) { try app.revokeToken(first.token.id) }
        #expect(try app.authenticate(bearer: benToken.secret) == benToken.token)

        // The handle is free: a new account on a new stream, whose token is its own.
        let fresh = try app.createToken(for: ann)
        #expect(fresh.openedAccount && fresh.token.stream != first.token.stream)
        #expect(try app.authenticate(bearer: first.secret) == nil)
        #expect(try app.authenticate(bearer: fresh.secret) == fresh.token)
        #expect(try app.tokens(of: ann) == [fresh.token])
    }

    /// A deletion stopped between its commit and the removal of the tokens (a crash) leaves them
    /// revoked, unlisted, and reaching nobody, the next account under the handle included.
    @Test func aDeletionStoppedBeforeTheRemovalLeavesNoLiveToken() throws {
        let app = Self.application()
        let issued = try app.createToken(for: ann)
        try app.revokeTokens(of: issued.token.stream)
        _ = try app.record(.deleteAccount, for: ann)
        #expect(try app.authenticate(bearer: issued.secret) == nil)
        #expect(try app.tokens(of: nil) == [])
        let fresh = try app.createToken(for: ann)
        #expect(try app.authenticate(bearer: issued.secret) == nil)
        #expect(try app.tokens(of: nil) == [fresh.token])
    }

    // MARK: - Damage

    @Test func aDamagedStoreIsOneLineNamingItsFile() throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/tokens", withIntermediateDirectories: true)
        // Two pages that are no LMDB meta pages.
        try Data(repeating: 0x5a, count: 8_192).write(to: URL(fileURLWithPath: directory + "/tokens/data.mdb"))
        let app = Self.application(in: directory)
        let calls: [(String, () throws -> Void)] = [
            ("authenticate", { _ = try app.authenticate(bearer: "reel_" + String(repeating: "A", count: 43)) }),
            ("tokens", { _ = try app.tokens(of: nil) }), ("revoke", { _ = try app.revokeToken("0123456789ab") }),
            ("create", { _ = try app.createToken(for: self.ann) }),
        ]
        for (name, call) in calls {
            do {
                try call()
                Issue.record("\(name) went on with a damaged token store")
            } catch let failure as Failure {
                #expect(failure.kind == .tampered, "\(name): \(failure)")
                #expect(failure.summary.contains(directory + "/tokens/data.mdb") && failure.summary.contains("token store is damaged"), "\(name): \(failure.summary)")
                #expect(failure.summary.contains("remove \(directory)/tokens"), "\(name): \(failure.summary)")
                #expect(!failure.summary.contains("\n"))
            }
        }
        #expect(try app.accounts().isEmpty, "a token that cannot be stored opens no account")
    }

    /// A store whose file was cut short, and one whose record was changed, each copied from a
    /// real store into a data directory this process has not opened.
    @Test func aCutOrChangedRecordIsDamageNotATokenLetThrough() throws {
        let original = temporaryDirectory()
        let issued = try Self.application(in: original).createToken(for: ann)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original + "/tokens/data.mdb"))

        let cut = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: cut + "/tokens", withIntermediateDirectories: true)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut + "/tokens/data.mdb"))
        #expect(throws: Failure.self) { _ = try Self.application(in: cut).authenticate(bearer: issued.secret) }
        do {
            _ = try Self.application(in: cut).authenticate(bearer: issued.secret)
        } catch let failure as Failure {
            #expect(failure.kind == .tampered && failure.summary.contains(cut + "/tokens/data.mdb") && failure.summary.contains("cut short"), "\(failure)")
        }

        // The record: format 1, the 32-byte digest, then the id; one byte of its sealed handle
        // (its last bytes) changed.
        let id = Data(issued.token.id.utf8)
        var changed = bytes
        var found = false
        var search = changed.startIndex..<changed.endIndex
        while let range = changed.range(of: id, in: search) {
            search = range.upperBound..<changed.endIndex
            guard range.lowerBound >= 33, changed[range.lowerBound - 33] == 1 else { continue }
            let streamLength = Int(changed[range.upperBound + 17]) << 8 | Int(changed[range.upperBound + 18])
            let sealed = range.upperBound + 19 + streamLength
            changed[sealed + 14] ^= 0x01
            found = true
            break
        }
        #expect(found, "the record was found in the file")
        let edited = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: edited + "/tokens", withIntermediateDirectories: true)
        try changed.write(to: URL(fileURLWithPath: edited + "/tokens/data.mdb"))
        do {
            let token = try Self.application(in: edited).authenticate(bearer: issued.secret)
            Issue.record("a changed record authenticated: \(String(describing: token))")
        } catch let failure as Failure {
            #expect(failure.kind == .tampered && failure.summary.contains("does not authenticate"), "\(failure)")
            #expect(failure.summary.contains(edited + "/tokens/data.mdb"), "\(failure)")
        }
    }
}

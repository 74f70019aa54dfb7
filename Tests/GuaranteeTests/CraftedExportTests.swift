import EndToEndSupport
import EventLog
import Failures
import Foundation
import LMDB
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// Reel exports whose hashes are all valid but whose values no command would accept: an escape
/// code in a language tag, a 60 MB photo, a 19-byte script declared as a 99999×99999 PNG, and
/// more. The history of such an export is made the way any LMDB client could make it (events
/// appended to the log directly, a photo put in the photo store), then exported by Reel, so the
/// envelopes, hashes and digests are Reel's own. `verify-export` and `import` must refuse each
/// with 65, naming the entry, and write nothing.
@Suite struct CraftedExportTests {
    /// An export of account `crafty` (a favorite and a name set through the commands' path), whose
    /// history ends with `raw` events (type, payload) appended as they are, and with `photo`'s
    /// bytes in the photo store under their SHA-256.
    static func craft(_ raw: [(type: String, payload: String)], photo: [UInt8]? = nil) throws -> [UInt8] {
        let service = try AccountService.open(at: temporaryDirectory("crafted"))
        let handle = try AccountHandle("crafty")
        _ = try service.execute(.addFavorites([try MediaKey(.movie, 550)]), for: handle)
        _ = try service.execute(.rename(try ProfileName("Crafty")), for: handle)
        let stream = try #require(try service.view(of: handle).stream)
        _ = try service.log.write { w in
            try w.append(raw.map { try ProposedEvent(type: $0.type, schemaVersion: 1, payload: Array($0.payload.utf8)) }, to: stream)
        }
        if let photo {
            let sealed = try service.log.sealBlob(photo, for: stream, context: ProjectionStore.photoContext)
            try service.log.reserveRoom(bytes: sealed.count * 2 + (1 << 20))
            try service.log.write { w in
                try w.table(service.store.photos).put(try ProjectionStore.photoKey(stream, ContentDigest.sha256Hex(photo), log: service.log), sealed)
            }
        }
        try service.catchUpIfNeeded()
        return try service.export(of: handle).document(generator: "crafted")
    }

    static func photoPayload(_ bytes: [UInt8], type: String = "image/png", size: Int? = nil, width: Int, height: Int) -> String {
        #"{"photo":{"bytes":\#(size ?? bytes.count),"contentType":"\#(type)","height":\#(height),"sha256":"\#(ContentDigest.sha256Hex(bytes))","width":\#(width)}}"#
    }

    /// A crafted export, the history index of its crafted entry, and what the refusal must name.
    enum Crafted: String, CaseIterable, CustomStringConvertible, Sendable {
        case languageWithEscape, languageNotShipped, photoOf60MB, scriptDeclaredAsPNG, pngWithFalseDimensions, gifPhoto
        case importSourceWithEscape

        var description: String { rawValue }

        /// The index of the crafted event in the history (after open, add and rename).
        static let index = 3

        func make() throws -> (bytes: [UInt8], naming: [String]) {
            let entry = "history[\(Self.index)]"
            switch self {
            case .languageWithEscape:
                return (try craft([("language-switched", #"{"language":"de\u001b[31m"}"#)]), [entry, "language-switched", "\\u{1B}[31m", "is not a language tag"])
            case .languageNotShipped:
                return (try craft([("language-switched", #"{"language":"xx-XX"}"#)]), [entry, "'xx-XX' is not a language tag"])
            case .photoOf60MB:
                // A real PNG header, then 60 MB: the reference says what the bytes are.
                var photo = Images.png
                photo += [UInt8](repeating: 0x5A, count: 60_000_000)
                return (try craft([("profile-photo-changed", photoPayload(photo, width: 1, height: 1))], photo: photo), [entry, "invalid photo", "60000070 bytes"])
            case .scriptDeclaredAsPNG:
                let script = Array("#!/bin/sh\nrm -rf ~\n".utf8)
                #expect(script.count == 19)
                return (
                    try craft([("profile-photo-changed", photoPayload(script, width: 99_999, height: 99_999))], photo: script),
                    ["settings.photo", "invalid photo", "neither a JPEG nor a PNG"]
                )
            case .pngWithFalseDimensions:
                let png = Images.png
                return (
                    try craft([("profile-photo-changed", photoPayload(png, width: 99_999, height: 99_999))], photo: png),
                    ["settings.photo", "is a PNG of 1x1 pixels, not the image/png of 99999x99999 it states"]
                )
            case .gifPhoto:
                let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40)
                return (
                    try craft([("profile-photo-changed", photoPayload(gif, type: "image/gif", width: 1, height: 1))], photo: gif),
                    [entry, "a type other than image/jpeg or image/png"]
                )
            case .importSourceWithEscape:
                let payload = #"{"addedAt":"2024-01-02T03:04:05.000000Z","id":603,"mediaType":"movie","source":"trakt\u001b]0;owned\u0007"}"#
                return (try craft([("favorite-imported", payload)]), [entry, "favorite-imported", "\\u{1B}]0;owned\\u{7}", "is not a source Reel imports from"])
            }
        }
    }

    /// Every crafted export through `Application`, as any front end asks: `verify-export`, and
    /// `import` as a new handle, as a dry run and into a data directory without a ledger. Each is
    /// refused as tampered data (65), in one line naming the entry, and nothing is written.
    @Test(arguments: Crafted.allCases)
    func aCraftedExportIsRefusedInProcessWhateverTheImport(_ crafted: Crafted) async throws {
        let (bytes, naming) = try crafted.make()
        let file = "/crafted/\(crafted).json"
        let app = Application(.init(dataDirectory: temporaryDirectory("crafted-app"), offline: true, environment: [:]))
        let newcomer = try AccountHandle("newcomer")
        _ = try await app.addFavorites([try MediaKey(.movie, 550)], for: try AccountHandle("mover"))
        let before = (try app.accounts(), try app.verifyLedger().head)
        func expectRefused(_ context: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("\(crafted): \(context): not refused")
            } catch let error as any KindedError {
                #expect(error.kind == .tampered, "\(crafted): \(context): \(error.kind)")
                let line = error.summary
                #expect(line.contains(file) && naming.allSatisfy(line.contains) && !line.contains("\n"), "\(crafted): \(context): \(line)")
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(crafted): a control character in: \(line)")
            } catch {
                Issue.record("\(crafted): \(context): an error without a kind: \(error)")
            }
        }
        await expectRefused("verify-export") { _ = try app.verifyExport(bytes, file: file) }
        for dryRun in [false, true] {
            await expectRefused("import, dry run \(dryRun)") {
                _ = try await app.importFile(bytes, file: file, format: nil, as: newcomer, defaultHandle: newcomer, dryRun: dryRun)
            }
        }
        #expect(try app.accounts() == before.0 && app.verifyLedger().head == before.1, "\(crafted): something was written")
        let emptyDirectory = temporaryDirectory("crafted-empty")
        let empty = Application(.init(dataDirectory: emptyDirectory, offline: true, environment: [:]))
        await expectRefused("import into no ledger") {
            _ = try await empty.importFile(bytes, file: file, format: nil, as: nil, defaultHandle: newcomer, dryRun: false)
        }
        #expect(try AccountMoveTests.files(under: emptyDirectory) == [], "\(crafted): a refused import created files")
        await app.close()
        await empty.close()
    }

    /// Through `reel`, for stderr and the exit code: the crafted texts that carry escape codes
    /// (which must not reach the terminal), and a file that is not an image at all.
    @Test(arguments: [Crafted.languageWithEscape, .importSourceWithEscape, .scriptDeclaredAsPNG])
    func aCraftedExportWithValidHashesIsRefusedByVerifyAndImportAndNothingIsWritten(_ crafted: Crafted) async throws {
        let (bytes, naming) = try crafted.make()
        let file = temporaryDirectory("crafted-file") + "/\(crafted).json"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        // The hashes are Reel's own: the independent verifier, which checks shapes and hashes, passes it.
        let python = try await Harness.python("verify_export.py", [file])
        #expect(python.status == 0, "\(crafted): the crafted file should have valid hashes: \(python.stderr)")
        let ledger = LedgerCommandTests.Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "mover").status == 0)
        let before = try await AccountMoveTests.snapshot(ledger)
        try await AccountMoveTests.refuses(ledger, ["account", "verify-export", file], status: 65, file: file, naming: naming, "\(crafted): verify-export")
        for extra in [["--as", "newcomer"], ["--as", "newcomer", "--dry-run"], ["--as", "newcomer", "--json"]] {
            let out = try await AccountMoveTests.refuses(
                ledger, ["account", "import", file] + extra, status: 65, file: file, naming: naming, "\(crafted): import \(extra)")
            #expect(!out.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(crafted): a control character reached stderr")
        }
        await #expect(try AccountMoveTests.snapshot(ledger) == before, "\(crafted): something was written")
        try await AccountMoveTests.expectFree("newcomer", in: ledger, "\(crafted)")
        let empty = LedgerCommandTests.Ledger()
        try await AccountMoveTests.refuses(empty, ["account", "import", file], status: 65, file: file, naming: naming, "\(crafted): empty")
        #expect(try AccountMoveTests.files(under: empty.dir) == [], "\(crafted): a refused import created files")
    }

    /// The photo's data is not part of the hash chain: a huge data field is refused by its length,
    /// before it is decoded.
    @Test func aHugePhotoDataFieldIsRefusedBeforeItIsDecoded() async throws {
        let png = Images.png
        var text = String(decoding: try Self.craft([("profile-photo-changed", Self.photoPayload(png, width: 1, height: 1))], photo: png), as: UTF8.self)
        let data = Data(png).base64EncodedString()
        #expect(text.contains("\"data\":\"\(data)\""))
        text = text.replacingOccurrences(of: "\"data\":\"\(data)\"", with: "\"data\":\"" + String(repeating: "QUFB", count: 20_000_000) + "\"")
        let file = temporaryDirectory("crafted-file") + "/huge-photo.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let ledger = LedgerCommandTests.Ledger()
        for command in [["account", "verify-export", file], ["account", "import", file, "--as", "newcomer"]] {
            try await AccountMoveTests.refuses(
                ledger, command, status: 65, file: file, naming: ["settings.photo", "more than the limit of 5,000,000 bytes (5 MB) for a photo"], "\(command)")
        }
        #expect(try AccountMoveTests.files(under: ledger.dir) == [])
    }

    /// Reel's own exports, with a name, language and photo set through the commands, pass the
    /// same checks: the round trip is unchanged.
    @Test func anExportOfValuesTheCommandsAcceptedStillVerifiesAndImports() async throws {
        let ledger = try await AccountMoveTests.makeLedger()
        let file = try await AccountMoveTests.export(ledger)
        #expect(try await ledger.reel(["account", "verify-export", file]).status == 0)
        let copy = LedgerCommandTests.Ledger()
        let out = try await copy.reel(["account", "import", file])
        #expect(out.status == 0, "\(out.stderr)")
        try await AccountMoveTests.expectSameAccount(copy, AccountMoveTests.handle, as: ledger, AccountMoveTests.handle, "round trip")
    }
}

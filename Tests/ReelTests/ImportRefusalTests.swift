import EventLog
import Failures
import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// Files `import` and `verify-export` must refuse (`DamagedExports`: tampered, truncated, foreign,
/// a newer version, broken CSVs and JSON, and what the export procedure rejects for subtler
/// reasons), each through `Application` in every way an import can be asked for: as a new handle,
/// dry run, into the existing account, into a data directory without a ledger. Each refusal is of
/// the kind its exit code comes from and names the file and where it fails; nothing is written.
/// The end-to-end suite runs a few of them through `reel` for the one-line stderr and the codes.
@Suite struct ImportRefusalTests {
    static let mover = try! AccountHandle("mover")
    static let ann = try! AccountHandle("ann")
    static let newcomer = try! AccountHandle("newcomer")

    /// The mover's account as `AccountMoveTests.makeLedger` makes it with `reel` (9 events of the
    /// mover's interleaved with ann's), and the text of its export.
    static func makeLedger(_ name: String) async throws -> (Application, export: String) {
        let (app, _) = ApplicationLedgerTests.application(name + "-ledger")
        let movie = { (id: Int64) in try MediaKey(.movie, id) }
        _ = try await app.addFavorites([movie(550), movie(603)], for: mover)
        _ = try await app.addFavorites([movie(238)], for: ann)
        _ = try await app.addFavorites([try MediaKey(.tv, 1399)], for: mover)
        _ = try app.change(.rename(try ProfileName(DamagedExports.name)), for: mover)
        _ = try await app.removeFavorites([movie(603)], for: mover)
        _ = try app.change(.changePhoto(try AccountService.photoReference(for: DamagedExports.png)), for: mover, photo: DamagedExports.png)
        _ = try app.change(.rename(try ProfileName("Ann Other")), for: ann)
        _ = try await app.addFavorites([movie(13)], for: mover)
        _ = try app.change(.switchLanguage(try LanguageTag("de-DE")), for: mover)
        let export = try await app.export(mover, format: .reel, generator: "reel tests")
        return (app, String(decoding: export.document, as: UTF8.self))
    }

    /// What must not change: the accounts, the chain's head and the files.
    struct Snapshot: Equatable {
        let accounts: [AccountSummary]
        let head: LogHead?
        let files: [String]
    }

    static func snapshot(_ app: Application) throws -> Snapshot {
        Snapshot(accounts: try app.accounts(), head: try app.verifyLedger().head, files: files(under: app.configuration.dataDirectory))
    }

    static func files(under dir: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: dir) else { return [] }
        return walk.compactMap { $0 as? String }.filter { relative in
            (try? FileManager.default.attributesOfItem(atPath: dir + "/" + relative)[.type] as? FileAttributeType) == .typeRegular
        }.sorted()
    }

    /// Expects `body` to throw one line of `kinds` (the exit code's) naming `file` and `naming`.
    static func expectRefusal(
        _ kinds: Set<FailureKind>, file: String, naming: [String], _ context: String, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("\(context): not refused")
        } catch let error as any KindedError {
            #expect(kinds.contains(error.kind), "\(context): \(error.kind): \(error.summary)")
            #expect(!error.summary.contains("\n"), "\(context): one line: \(error.summary)")
            #expect(error.summary.contains(file), "\(context): names the file: \(error.summary)")
            for fragment in naming { #expect(error.summary.contains(fragment), "\(context): names '\(fragment)': \(error.summary)") }
        } catch {
            Issue.record("\(context): an error without a kind: \(error)")
        }
    }

    /// The kinds `reel` turns into `status` (handbook, "Exit codes").
    static func kinds(_ status: Int32) -> Set<FailureKind> {
        switch status {
        case 64: [.usage]
        case 65: [.data, .tampered]
        default: []
        }
    }

    @Test(arguments: DamagedExports.BadFile.allCases.filter { $0 != .missing })
    func aBadFileIsRefusedWhateverTheImportAndNothingIsWritten(_ bad: DamagedExports.BadFile) async throws {
        let (app, good) = try await Self.makeLedger("\(bad)")
        let file = temporaryDirectory("bad") + "/\(bad).\(bad.fileExtension)"
        let (made, importNaming, verifyNaming) = DamagedExports.make(bad, from: good)
        let bytes = try #require(made)
        let format = bad.importArguments.last.flatMap(InterchangeFormat.init(name:))
        let before = try Self.snapshot(app)

        let imports: [(String, AccountHandle?, AccountHandle, Bool)] = [
            ("as a new handle", Self.newcomer, Self.mover, false), ("dry run", Self.newcomer, Self.mover, true),
            ("into --user", nil, Self.newcomer, false), ("into the existing account", nil, Self.mover, false),
        ]
        for (how, handle, defaultHandle, dryRun) in imports {
            await Self.expectRefusal(Self.kinds(bad.importStatus), file: file, naming: importNaming, "\(bad): import \(how)") {
                _ = try await app.importFile(bytes, file: file, format: format, as: handle, defaultHandle: defaultHandle, dryRun: dryRun)
            }
        }
        #expect(try Self.snapshot(app) == before, "\(bad): something was written")
        #expect(try app.account(Self.newcomer).isUnopened, "\(bad): the refused import opened the account")

        // Into a data directory without a ledger: refused the same way, and nothing is created.
        let (empty, _) = ApplicationLedgerTests.application("\(bad)-empty")
        await Self.expectRefusal(Self.kinds(bad.importStatus), file: file, naming: importNaming, "\(bad): into no ledger") {
            _ = try await empty.importFile(bytes, file: file, format: format, as: nil, defaultHandle: Self.newcomer, dryRun: false)
        }
        #expect(Self.files(under: empty.configuration.dataDirectory) == [], "\(bad): a refused import created files")

        if bad.verifyStatus != nil {
            await Self.expectRefusal([.tampered], file: file, naming: verifyNaming, "\(bad): verify-export") {
                _ = try app.verifyExport(bytes, file: file)
            }
        }
        await app.close()
        await empty.close()
    }

    @Test(arguments: DamagedExports.SubtleFile.allCases)
    func aFileTheProcedureRejectsIsRefusedToo(_ subtle: DamagedExports.SubtleFile) async throws {
        let (app, good) = try await Self.makeLedger("\(subtle)")
        let file = "/nowhere/\(subtle).json"
        let (bytes, naming) = DamagedExports.make(subtle, from: good)
        let before = try Self.snapshot(app)
        await Self.expectRefusal([.tampered], file: file, naming: naming, "\(subtle): verify-export") { _ = try app.verifyExport(bytes, file: file) }
        await Self.expectRefusal([.tampered], file: file, naming: naming, "\(subtle): import") {
            _ = try await app.importFile(bytes, file: file, format: nil, as: Self.newcomer, defaultHandle: Self.mover, dryRun: false)
        }
        #expect(try Self.snapshot(app) == before, "\(subtle): something was written")
        await app.close()
    }

    /// The good export the damaged ones are made from is itself imported: the refusals are for
    /// the damage, not for the file's shape.
    @Test func theUndamagedExportImports() async throws {
        let (app, good) = try await Self.makeLedger(#function)
        let report = try await app.importFile(Array(good.utf8), file: "good.json", format: nil, as: Self.newcomer, defaultHandle: Self.mover, dryRun: false)
        guard case .restored(let restored, _, _) = report else { Issue.record("not restored: \(report)"); return }
        #expect(restored.handle == Self.newcomer && restored.events == 9)
        #expect(try app.account(Self.newcomer).state.saved.items.map(\.key) == app.account(Self.mover).state.saved.items.map(\.key))
        await app.close()
    }
}

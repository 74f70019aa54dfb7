import Failures
import EventLog
import Foundation
import Ledger

extension Application {
    /// Imports `bytes` (the file `file`, named in messages) in `format`, or the format recognised
    /// from the content: a Reel export is verified and restored as a new account (`handle`, else
    /// the exported one); another app's list is matched to TMDb titles and saved into `handle`
    /// (else `defaultHandle`). With `dryRun` nothing is written and no ledger is made.
    /// `progress` counts titles matched; `step` names each step of a restore as it is reached.
    public func importFile(
        _ bytes: [UInt8], file: String, format: InterchangeFormat?, as handle: AccountHandle?, defaultHandle: AccountHandle,
        dryRun: Bool, progress: ((Int, Int) -> Void)? = nil, step: (ImportStep) -> Void = { _ in }
    ) async throws -> ImportReport {
        try await importFile(bytes, file: file, format: format, as: handle, defaultHandle: defaultHandle, bound: nil, dryRun: dryRun, progress: progress, step: step)
    }

    /// The same into `account` as its caller was bound to it (a token's account): another app's
    /// list is saved only if the handle still names that account when it is written; a Reel
    /// export, which opens a new account, is refused (the handle has one, or had it when the
    /// caller was bound: `accountGone`).
    public func importFile(_ bytes: [UInt8], file: String, format: InterchangeFormat?, into account: BoundAccount, dryRun: Bool) async throws
        -> ImportReport
    {
        try await importFile(bytes, file: file, format: format, as: account.handle, defaultHandle: account.handle, bound: account, dryRun: dryRun)
    }

    private func importFile(
        _ bytes: [UInt8], file: String, format: InterchangeFormat?, as handle: AccountHandle?, defaultHandle: AccountHandle, bound: BoundAccount?,
        dryRun: Bool, progress: ((Int, Int) -> Void)? = nil, step: (ImportStep) -> Void = { _ in }
    ) async throws -> ImportReport {
        guard let kind = format ?? InterchangeFormat.detect(bytes) else {
            throw Failure(
                .usage,
                "\(file): not a file Reel can import (a Reel export, a Letterboxd or IMDb CSV, or a Trakt JSON); name its format with --format")
        }
        // Other apps' lists are far smaller than a whole account's export.
        if kind != .reelExport, bytes.count > InputLimit.list {
            throw InputFileError.tooLarge(path: file, limit: InputLimit.list).failure(what: kind.description)
        }
        if kind == .reelExport {
            if let bound, bound.stream != nil {
                // A restore opens a new account: never under a binding to one.
                let open = try existingLedger(for: bound.handle)?.openStream(bound.handle)
                throw open == bound.stream ? ReelError.handleTaken(bound.handle.value) : ReelError.accountGone(bound.handle.value)
            }
            return try restore(bytes, file: file, as: handle, dryRun: dryRun, step: step)
        }
        return .list(
            try await importList(bytes, kind, file: file, into: handle ?? defaultHandle, bound: bound, dryRun: dryRun, progress: progress, step: step))
    }

    private func restore(_ bytes: [UInt8], file: String, as handle: AccountHandle?, dryRun: Bool, step: (ImportStep) -> Void) throws
        -> ImportReport
    {
        let document = try Self.verifiedExport(bytes, file: file, suffix: "; nothing imported")
        let target = handle ?? document.handle
        let report: RestoreReport
        if let ledger = try dryRun ? existingLedger(for: target) : ledger(for: target) {
            report = try ledger.restore(document, as: target, dryRun: dryRun, step: step)
        } else {
            let (events, skipped) = document.restoredEvents(as: target)
            report = RestoreReport(handle: target, stream: nil, events: events.count, saved: document.state.saved.count, skipped: skipped, state: document.state)
        }
        return .restored(report, sourceHandle: document.handle, sourceStream: document.sourceStream)
    }

    private func importList(
        _ bytes: [UInt8], _ kind: InterchangeFormat, file: String, into target: AccountHandle, bound: BoundAccount?, dryRun: Bool,
        progress: ((Int, Int) -> Void)?, step: (ImportStep) -> Void
    ) async throws -> ListImportReport {
        let titles: [ImportedTitle]
        do {
            titles = try kind.readTitles(bytes) ?? []
        } catch {
            throw Failure(.data, "\(file): \(error.description); nothing imported")
        }
        let existing = try existingLedger(for: target)
        let view = existing.flatMap { ledger in try? ledger.view(of: target) }
        let current = view?.state
        // Bound now, when the use case resolves the handle, unless the caller was bound before.
        let account = bound ?? BoundAccount(target, stream: view?.stream)
        let language = current?.settings.language.value ?? LanguageTag.default.value
        let catalog = try catalogs.catalog()
        var matches = try await TitleMatcher(client: catalog, language: language).match(titles, progress: progress)
        // A TMDb id the file gives is checked as `fav add` checks one: an id the catalog does not
        // have (TMDb, or the bundled sample) is not saved but listed as unmatched; one that cannot
        // be checked (offline, TMDb unreachable) is saved. Ids found by IMDb id or title came
        // from the catalog itself.
        let given = Set(zip(titles, matches).compactMap { title, match in title.tmdbID == nil ? nil : match.key })
        if !given.isEmpty {
            let lookups = try await lookUp(Array(given), language: language)
            for index in matches.indices {
                guard let key = matches[index].key, titles[index].tmdbID != nil, lookups[key] == .notFound else { continue }
                matches[index] = .unmatched(reason: catalog.source.hasNo("\(key.mediaType.noun) with id \(key.id)"))
            }
        }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let favorites = zip(titles, matches).compactMap { title, match in match.key.map { ImportedFavorite(key: $0, addedAt: title.addedAt ?? now) } }
        let unmatched = zip(titles, matches).compactMap { title, match -> ListImportReport.Unmatched? in
            if case .unmatched(let reason) = match { return .init(title: title, reason: reason) }
            return nil
        }
        let command = Command.importFavorites(favorites, source: kind.name)
        var outcomes: [Outcome] = []
        var stream: StreamID?
        var changed = false
        if dryRun {
            outcomes = try Decider.decide(command, for: target, state: current).outcomes
        } else if !favorites.isEmpty {
            // The ledger is made only now, when there is something to write.
            let report = try record(command, for: account)
            step(.committed)
            outcomes = report.outcomes
            stream = report.stream
            changed = !report.appended.isEmpty
        }
        return ListImportReport(
            format: kind, handle: target, stream: stream, rows: titles.count, matched: favorites.count,
            added: outcomes.filter { if case .favoriteAdded = $0 { true } else { false } }.count,
            alreadySaved: outcomes.filter { if case .alreadySaved = $0 { true } else { false } }.count,
            repeated: favorites.count - Set(favorites.map(\.key)).count, unmatched: unmatched, changed: changed)
    }

    /// Parses and verifies a Reel export a person named: one line naming the file and where it fails.
    static func verifiedExport(_ bytes: [UInt8], file: String, suffix: String = "") throws -> ExportDocument {
        do {
            return try ExportDocument(parsing: bytes)
        } catch {
            throw Failure(.tampered, "\(file): \(error.description)\(suffix)")
        }
    }
}

extension Application {
    /// Verifies a Reel export (`file` names it in messages): its seals, hashes and chain, and its
    /// proofs when it carries them. A file that does not verify is a `.tampered` failure saying
    /// where. With `key` (the operator's published checkpoint key, `reel audit key`), its proofs
    /// must be signed by that key: an export without proofs, or signed by another key, fails too.
    public func verifyExport(_ bytes: [UInt8], file: String, key: String? = nil) throws -> ExportDocument {
        let document = try Self.verifiedExport(bytes, file: file)
        guard let key = key?.trimmingCharacters(in: .whitespacesAndNewlines) else { return document }
        guard let proved = document.provedIn else {
            throw Failure(.tampered, "\(file): carries no proofs, so nothing shows its events are in the ledger of the key \(key)")
        }
        guard proved.key == key else {
            throw Failure(.tampered, "\(file): its proofs are signed by \(proved.key), not by the key given (\(key))")
        }
        return document
    }
}

import Ledger

extension Application {
    /// The account's export in `format`: Reel's document (settings, saved list with catalog
    /// details unless `details` is false, the whole history with its seals and hashes), or the
    /// saved movies as Letterboxd's CSV. `generator` names the program in the document.
    public func export(
        _ handle: AccountHandle, format: ExportFormat, details: Bool = true, generator: String, progress: ((Int, Int) -> Void)? = nil
    ) async throws -> ExportReport {
        let ledger = try requiredLedger(for: handle)
        var export = try ledger.export(of: handle)
        // Each event's inclusion proof, against the checkpoint signed now: shown to anyone
        // without the ledger (`account verify-export`). An export goes on without them when the
        // key cannot be had (said by `verify-export`: no transparency).
        if let proofs = export.proofs, let key = try? signingKey(for: proofs.checkpoint.origin, of: ledger.log, recording: false) {
            export.signed = (try key.sign(proofs.checkpoint.body), key.verifierKey)
        }
        // Between the shards of a move, the account's events are about to go elsewhere: an export
        // now would be of an account that cannot be restored. Refused until the move is done.
        if export.state.status == .moved { throw DomainError.accountMoved(handle.value) }
        let keys = export.state.saved.items.map(\.key).filter { format == .reel || $0.mediaType == .movie }
        var summaries: [MediaKey: TitleSummary] = [:]
        if details, !keys.isEmpty {
            let lookups = try await lookUp(keys, language: export.state.settings.language.value, progress: progress)
            summaries = lookups.compactMapValues(\.summary)
        }
        let document: [UInt8]
        var notices: [String] = []
        switch format {
        case .letterboxd:
            let series = export.state.saved.items.count - keys.count
            if series > 0 { notices.append("Letterboxd lists films only: \(series) saved series left out") }
            document = LetterboxdCSV.write(keys.map { LetterboxdCSV.Row(tmdbID: $0.id, title: summaries[$0]?.title ?? "", year: summaries[$0]?.year) })
        case .reel:
            document = try export.document(details: summaries.mapValues(\.exportDetails), generator: generator)
        }
        return ExportReport(
            handle: handle, stream: export.stream, format: format, document: document, events: export.events.count,
            saved: export.state.saved.count, listed: keys.count, headPosition: export.head.position, notices: notices)
    }
}

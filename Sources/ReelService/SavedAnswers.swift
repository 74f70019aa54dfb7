import Foundation
import Hummingbird
import Reel
import ReportJSON
import Synchronization

/// The saved lists answered lately, kept rendered: the same question of the same account gets
/// the same bytes without reading the ledger's projections, the catalog's details and OMDb's
/// scores again, as long as the core says the answer still holds (`ReadValidity`: the account's
/// stream has not moved, the response cache has not been written, nothing it used has gone
/// stale). Answers holding work still to do are never kept. Bounded in entries and bytes; when
/// full, the entries kept longest go first.
final class SavedAnswers: Sendable {
    /// One rendered answer: its JSON bytes (with the final newline) and its strong ETag.
    struct Answer: Sendable {
        let body: ByteBuffer
        let etag: String
    }

    /// The account as the caller was bound to it (its stream too: an account opened again under
    /// the handle never gets an answer kept for the one before).
    private struct Key: Hashable {
        let account: BoundAccount
        let query: SavedListQuery
    }

    private struct Entry {
        let answer: Answer
        let validity: ReadValidity
        let order: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var next: UInt64 = 0
    }

    private let state = Mutex(State())
    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int = 4_096, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The answer kept for `query` of `account` if it still holds, else the one `make` renders
    /// (kept when the report says how long it holds). The second value tells whether it was
    /// reused.
    func answer(
        of account: BoundAccount, _ query: SavedListQuery, application: Reel.Application,
        make: () async throws -> SavedListReport
    ) async throws -> (Answer, reused: Bool) {
        let key = Key(account: account, query: query)
        if let kept = state.withLock({ $0.entries[key] }), try application.stillHolds(kept.validity, for: account.handle) {
            return (kept.answer, true)
        }
        let report = try await make()
        var bytes = ReportJSON.saved(report, query: query).encoded()
        bytes.append(UInt8(ascii: "\n"))
        let answer = Answer(body: ByteBuffer(bytes: bytes), etag: EntityTag.of(bytes))
        if let validity = report.validity { keep(answer, validity, under: key) }
        return (answer, false)
    }

    /// How many answers are kept, and their bytes.
    var figures: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

    private func keep(_ answer: Answer, _ validity: ReadValidity, under key: Key) {
        let size = answer.body.readableBytes
        guard size <= maxBytes / 4 else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.answer.body.readableBytes }
            while !state.entries.isEmpty, state.entries.count >= maxEntries || state.bytes + size > maxBytes {
                let oldest = state.entries.min { $0.value.order < $1.value.order }!
                state.entries.removeValue(forKey: oldest.key)
                state.bytes -= oldest.value.answer.body.readableBytes
            }
            state.next += 1
            state.entries[key] = Entry(answer: answer, validity: validity, order: state.next)
            state.bytes += size
        }
    }
}

import Stores
import EventLog
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// Random command sequences across several accounts, on a real ledger: the projections kept
/// inline equal a replay of the whole log, and a view as of any point equals replaying the prefix.
@Suite struct ProjectionPropertyTests {
    static let handles = try! ["ann", "ben", "cy", "dee"].map { try AccountHandle($0) }
    static let languages = try! ["en-US", "de-DE", "pt-BR", "fr", "ja-JP"].map { try LanguageTag($0) }
    static let names = try! ["Ann", "Ben B.", "Cy", "Zoë"].map { try ProfileName($0) }

    static func randomCommand(_ r: inout SplitMix64) throws -> Command {
        func keys() throws -> [MediaKey] {
            try (0...r.int(0..<3)).map { _ in try MediaKey(r.int(0..<2) == 0 ? .movie : .tv, Int64(1 + r.int(0..<12))) }
        }
        switch r.int(0..<20) {
        case 0..<8: return .addFavorites(try keys())
        case 8..<13: return .removeFavorites(try keys())
        case 13..<15: return .rename(names[r.int(0..<names.count)])
        case 15..<17: return .switchLanguage(languages[r.int(0..<languages.count)])
        case 17:
            return .changePhoto(
                PhotoReference(sha256: String(repeating: "ab", count: 32), contentType: "image/png", bytes: 70, width: 1, height: 1))
        case 18: return .removePhoto
        default: return .deleteAccount
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func inlineProjectionsEqualAReplayAndAsOfEqualsThePrefix(seed: UInt64) throws {
        let service = try AccountService.open(at: temporaryDirectory("property-\(seed)"))
        var random = SplitMix64(seed: seed)
        var commands = 0
        for _ in 0..<120 {
            let handle = Self.handles[random.int(0..<Self.handles.count)]
            let command = try Self.randomCommand(&random)
            do {
                _ = try service.execute(command, for: handle, photo: [1, 2, 3])
                commands += 1
            } catch let error as DomainError {
                Issue.record("a valid command was refused: \(error)")
            }
        }
        #expect(commands == 120)

        // Rebuilt (replayed) projections equal the inline ones: no drift at all.
        let check = try service.rebuildProjections(checkOnly: true)
        #expect(check.drift.isEmpty, "\(check.drift)")

        // As of every position, each account's view equals a replay of its events up to there.
        let all = try service.log.read(from: 1, maxCount: Int.max)
        let head = all.last?.position ?? 0
        for stream in Set(all.map(\.streamID)) {
            let events = all.filter { $0.streamID == stream }
            var replay = AccountState()
            for event in events { try Projector().apply(event, to: &replay) }
            guard let handle = replay.handle else { continue }
            let isCurrent = (try? service.view(of: handle).stream) == stream
            guard isCurrent || replay.status == .deleted else { continue }
            for position in stride(from: events.first!.position, through: head, by: max(1, Int(head) / 15)) {
                let prefix = AccountState.replaying(
                    try events.filter { $0.position <= position }.compactMap { event in
                        try Projector().domainEvent(event).map {
                            RecordedDomainEvent(
                                event: $0, position: event.position, streamVersion: event.streamVersion,
                                recordedAt: event.envelope.recordedAtMicroseconds)
                        }
                    })
                guard isCurrent else { continue }
                let view = try service.view(of: handle, asOf: .position(position))
                #expect(view.state.saved == prefix.saved, "\(handle) as of \(position)")
                #expect(view.state.settings == prefix.settings, "\(handle) as of \(position)")
                #expect(view.state.status == prefix.status)
            }
            if isCurrent {
                let live = try service.view(of: handle)
                #expect(live.state == replay, "\(handle): live projection differs from a replay")
                let byVersion = try service.view(of: handle, asOf: .streamVersion(replay.version))
                #expect(byVersion.state.saved == replay.saved)
            }
        }

        // A full rebuild swaps in equal projections and leaves nothing to repair.
        let rebuilt = try service.rebuildProjections(checkOnly: false)
        #expect(rebuilt.drift.isEmpty)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
    }

    /// Lists of hundreds of titles (several pages each, see `AccountStateCodec`), added and
    /// removed anywhere in them: the stored states stay what a replay makes.
    @Test(arguments: [5, 6] as [UInt64])
    func longListsChangedAnywhereStayEqualToAReplay(seed: UInt64) throws {
        let service = try AccountService.open(at: temporaryDirectory("long-lists-\(seed)"))
        var random = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let handle = Self.handles[random.int(0..<2)]
            let keys = try (0..<(1 + random.int(0..<12))).map { _ in try MediaKey(random.int(0..<2) == 0 ? .movie : .tv, Int64(1 + random.int(0..<200))) }
            _ = try service.execute(random.int(0..<3) == 0 ? .removeFavorites(keys) : .addFavorites(keys), for: handle)
            if random.int(0..<25) == 0 { service.states.forgetAll() }  // the next command reads the stored state
        }
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
        let all = try service.log.read(from: 1, maxCount: Int.max)
        for handle in Self.handles.prefix(2) {
            let stream = try #require(try service.view(of: handle).stream)
            var replay = AccountState()
            for event in all where event.streamID == stream { try Projector().apply(event, to: &replay) }
            #expect(replay.saved.count > AccountStateCodec.pageSize)
            service.states.forgetAll()
            #expect(try service.view(of: handle).state == replay)
        }
    }
}

import JSONKit
import ReelTestSupport
import Ledger
import Testing

// Property-style tests of the decider and the reducers together, without external libraries:
// command sequences are drawn from a seeded SplitMix64 generator (see Fixtures.swift), so every
// failure names a seed that reproduces it.

private let handles = ["ann", "ben", "cy"].map(accountHandle)
private let keyPool: [MediaKey] = (1...5).map(movie) + (1...3).map(tv)
private let namePool = ["Ann", "Ben", "Cy Twombly"].map(profileName)
private let photoPool = (1...3).map { photoReference(UInt64($0)) }
private let tagPool = ["en-US", "de-DE", "pt-BR", "fr"].map(languageTag)

private func randomKeys(_ rng: inout SplitMix64) -> [MediaKey] {
    (0..<rng.int(0..<5)).map { _ in rng.pick(keyPool) }
}

private func randomCommand(_ rng: inout SplitMix64) -> Command {
    switch rng.int(0..<100) {
    case 0..<25: return .addFavorites(randomKeys(&rng))
    case 25..<30:
        return .importFavorites(randomKeys(&rng).map { ImportedFavorite(key: $0, addedAt: Int64(rng.int(0..<1_000_000))) }, source: "letterboxd")
    case 30..<50: return .removeFavorites(randomKeys(&rng))
    case 50..<60: return .rename(rng.pick(namePool))
    case 60..<70: return .changePhoto(rng.pick(photoPool))
    case 70..<78: return .removePhoto
    case 78..<94: return .switchLanguage(rng.pick(tagPool))
    case 94..<97: return .openAccount
    default: return .deleteAccount
    }
}

/// An independent model of one account, written from the rules rather than from the Ledger's
/// reducers: what the decider should append for a command.
private struct Model {
    var exists = false
    var deleted = false
    var saved: [MediaKey] = []
    var name: ProfileName?
    var photo: PhotoReference?
    var language = LanguageTag.default

    /// The events `command` should append; nil when it must be refused.
    func expectedEvents(_ command: Command, for handle: AccountHandle) -> [DomainEvent]? {
        if deleted { return nil }
        var events: [DomainEvent] = []
        switch command {
        case .addFavorites(let keys):
            var seen: [MediaKey] = []
            for key in keys where !seen.contains(key) {
                seen.append(key)
                if !saved.contains(key) { events.append(.favoriteAdded(key)) }
            }
        case .importFavorites(let favorites, let source):
            var seen: [MediaKey] = []
            for favorite in favorites where !seen.contains(favorite.key) {
                seen.append(favorite.key)
                if !saved.contains(favorite.key) { events.append(.favoriteImported(favorite.key, addedAt: favorite.addedAt, source: source)) }
            }
        case .removeFavorites(let keys):
            var seen: [MediaKey] = []
            for key in keys where !seen.contains(key) {
                seen.append(key)
                if saved.contains(key) { events.append(.favoriteRemoved(key)) }
            }
        case .rename(let new): if new != name { events.append(.profileNameChanged(new)) }
        case .changePhoto(let new): if new != photo { events.append(.profilePhotoChanged(new)) }
        case .removePhoto: if photo != nil { events.append(.profilePhotoRemoved) }
        case .switchLanguage(let tag): if tag != language { events.append(.languageSwitched(tag)) }
        case .deleteAccount: if exists { events.append(.accountDeleted) }
        case .openAccount: return exists ? [] : [.accountOpened(handle)]
        }
        if !exists, !events.isEmpty { events.insert(.accountOpened(handle), at: 0) }
        return events
    }

    mutating func apply(_ event: DomainEvent) {
        switch event {
        case .accountOpened: exists = true
        case .favoriteAdded(let key), .favoriteImported(let key, _, _): saved.append(key)
        case .favoriteRemoved(let key): saved.removeAll { $0 == key }
        case .profileNameChanged(let new): name = new
        case .profilePhotoChanged(let new): photo = new
        case .profilePhotoRemoved: photo = nil
        case .languageSwitched(let tag): language = tag
        case .accountDeleted:
            deleted = true
            saved = []
            name = nil
            photo = nil
            language = .default
        case .accountMovedOut, .accountMovedIn: break  // only a move between shards appends these
        }
    }
}

/// Which event an outcome that changed something stands for.
private func eventType(of outcome: Outcome) -> String? {
    switch outcome {
    case .accountOpened: "account-opened"
    case .favoriteAdded: "favorite-added"
    case .favoriteRemoved: "favorite-removed"
    case .nameChanged: "profile-name-changed"
    case .photoChanged: "profile-photo-changed"
    case .photoRemoved: "profile-photo-removed"
    case .languageSwitched: "language-switched"
    case .accountDeleted: "account-deleted"
    default: nil
    }
}

@Suite struct DeciderPropertyTests {
    @Test func generatorIsSplitMix64() {
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(zero.next() == 0x06C4_5D18_8009_454F)
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
    }

    /// 200 random sequences of commands over three handles. After each command: the decision is
    /// what the model expects, the saved list has no duplicates, replaying the stream gives the
    /// state built event by event, and deciding the same command again appends nothing.
    @Test(arguments: 0..<200)
    func randomCommandSequences(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var states: [AccountHandle: AccountState] = [:]
        var models: [AccountHandle: Model] = [:]
        var streams: [AccountHandle: [RecordedDomainEvent]] = [:]
        var snapshots: [AccountHandle: [AccountState]] = [:]
        var position: UInt64 = 0
        var clock = baseTime
        var refusals = 0, changes = 0, noOps = 0

        for step in 0..<40 {
            let handle = rng.pick(handles)
            let command = randomCommand(&rng)
            let model = models[handle, default: Model()]
            let before = states[handle]
            let context = Comment(rawValue: "seed \(seed), step \(step): \(handle) \(command)")

            guard let expected = model.expectedEvents(command, for: handle) else {
                // A deleted account refuses everything, and says whose it is.
                #expect(throws: DomainError.accountDeleted(handle.value), context) {
                    try Decider.decide(command, for: handle, state: before)
                }
                refusals += 1
                continue
            }
            let decision = try Decider.decide(command, for: handle, state: before)
            try #require(decision.events == expected, context)

            // Outcomes: one for each event appended, about the same thing, in the same order.
            // An import's additions are reported as additions; their events are favorite-imported.
            let changing = decision.outcomes.filter(\.changed)
            let importing: Bool = if case .importFavorites = command { true } else { false }
            let expectedTypes = changing.map(eventType(of:)).map { importing && $0 == "favorite-added" ? "favorite-imported" : $0 }
            try #require(expectedTypes == decision.events.map { Optional($0.type) }, context)
            try #require(decision.outcomes.allSatisfy { $0.changed == (eventType(of: $0) != nil) }, context)
            if case .addFavorites(let keys) = command {
                try #require(decision.outcomes.compactMap(\.mediaKey) == uniqued(keys), context)
            }
            if case .importFavorites(let favorites, _) = command {
                try #require(decision.outcomes.compactMap(\.mediaKey) == uniqued(favorites.map(\.key)), context)
            }
            if case .removeFavorites(let keys) = command {
                try #require(decision.outcomes.compactMap(\.mediaKey) == uniqued(keys), context)
            }

            // An account is opened once, first, by the first command that changes something.
            let opened = decision.events.filter { if case .accountOpened = $0 { true } else { false } }
            try #require(opened.count == ((before == nil && !decision.events.isEmpty) ? 1 : 0), context)
            if !opened.isEmpty { try #require(decision.events.first == .accountOpened(handle), context) }

            if decision.events.isEmpty {
                noOps += 1
                // Nothing changes, and a handle that had no account still has none.
                try #require(states[handle] == before, context)
            } else {
                changes += 1
                // A retry under the same idempotency key reads the same decision back from the
                // events alone.
                try #require(Decider.decision(of: command, for: handle, appended: decision.events) == decision, context)
                var state = before ?? AccountState()
                var updatedModel = model
                for event in decision.events {
                    position += 1
                    clock += Int64(rng.int(1..<1_000))
                    let streamVersion = UInt64(streams[handle, default: []].count + 1)
                    let recordedEvent = RecordedDomainEvent(event: event, position: position, streamVersion: streamVersion, recordedAt: clock)
                    state.apply(recordedEvent)
                    streams[handle, default: []].append(recordedEvent)
                    updatedModel.apply(event)
                    // Every event decided decodes back from its own payload.
                    try #require(try EventDecoder.standard.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload.encoded()) == event, context)
                }
                states[handle] = state
                models[handle] = updatedModel
                snapshots[handle, default: []].append(state)
            }

            guard let state = states[handle] else { continue }
            let stream = streams[handle] ?? []
            let current = models[handle]!

            // The saved list never has duplicates, and is what the model says, in order.
            let keys = state.saved.items.map(\.key)
            try #require(Set(keys).count == keys.count, context)
            try #require(keys == current.saved, context)
            try #require(state.saved.count == keys.count && keys.allSatisfy(state.saved.contains), context)
            // Each item carries the time and position of the event that added it (the latest such
            // event): its recorded time, or for an import the original time the event carries.
            for item in state.saved.items {
                let adding = try #require(
                    stream.last(where: {
                        if case .favoriteImported(item.key, _, _) = $0.event { return true }
                        return $0.event == .favoriteAdded(item.key)
                    }), context)
                var expectedTime = adding.recordedAt
                if case .favoriteImported(_, let addedAt, _) = adding.event { expectedTime = addedAt }
                try #require(item.addedAt == expectedTime && item.position == adding.position, context)
            }
            try #require(state.settings == Settings(name: current.name, photo: current.photo, language: current.language), context)
            try #require(state.status == (current.deleted ? .deleted : .open), context)
            try #require(state.handle == handle, context)
            try #require(state.version == UInt64(stream.count) && state.lastPosition == stream.last?.position, context)

            // Replaying everything so far gives the incrementally built state.
            try #require(AccountState.replaying(stream) == state, context)

            // The same command again is a no-op; or refused if it deleted the account.
            if state.status == .deleted {
                #expect(throws: DomainError.accountDeleted(handle.value), context) {
                    try Decider.decide(command, for: handle, state: state)
                }
            } else {
                let again = try Decider.decide(command, for: handle, state: state)
                try #require(again.events.isEmpty, context)
                try #require(again.changesNothing && !again.outcomes.contains(where: \.changed), context)
            }
        }

        // Time travel: the view as of each point of a stream is the state it had then.
        for handle in handles {
            let stream = streams[handle] ?? []
            for snapshot in snapshots[handle] ?? [] {
                let last = try #require(stream.last(where: { $0.position == snapshot.lastPosition }))
                for asOf in [AsOf.position(last.position), .streamVersion(last.streamVersion), .time(last.recordedAt)] {
                    let view = AccountState.replaying(stream.filter {
                        asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.recordedAt)
                    })
                    #expect(view == snapshot, "seed \(seed): \(handle) as of \(asOf)")
                }
            }
        }
        // The generator should exercise the interesting paths, not only no-ops.
        #expect(changes > 0 && noOps > 0, "seed \(seed): \(changes) changes, \(noOps) no-ops, \(refusals) refusals")
    }

    /// Across all seeds, every outcome kind and the deleted-account refusal are actually reached.
    @Test func sequencesReachEveryOutcome() throws {
        var kinds = Set<String>()
        var refused = false
        for seed in UInt64(0)..<200 {
            var rng = SplitMix64(seed: seed)
            var states: [AccountHandle: AccountState] = [:]
            var position: UInt64 = 0
            for _ in 0..<40 {
                let handle = rng.pick(handles)
                let command = randomCommand(&rng)
                do {
                    let decision = try Decider.decide(command, for: handle, state: states[handle])
                    kinds.formUnion(decision.outcomes.map(\.kind))
                    guard !decision.events.isEmpty else { continue }
                    var state = states[handle] ?? AccountState()
                    for event in decision.events {
                        position += 1
                        state.apply(RecordedDomainEvent(event: event, position: position, streamVersion: state.version + 1, recordedAt: Int64(position)))
                    }
                    states[handle] = state
                } catch {
                    #expect(error == .accountDeleted(handle.value))
                    refused = true
                }
            }
        }
        #expect(refused)
        #expect(kinds == [
            "account-opened", "favorite-added", "already-saved", "favorite-removed", "not-saved", "name-changed",
            "name-unchanged", "photo-changed", "photo-unchanged", "photo-removed", "no-photo", "language-switched",
            "language-unchanged", "account-deleted", "no-account", "account-exists",
        ])
    }
}

private func uniqued(_ keys: [MediaKey]) -> [MediaKey] {
    var seen = Set<MediaKey>()
    return keys.filter { seen.insert($0).inserted }
}

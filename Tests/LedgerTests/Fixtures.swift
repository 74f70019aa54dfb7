import ReelTestSupport
import Ledger

// Small builders shared by the Ledger tests. They crash on invalid input on purpose: they are
// only ever given values the tests know to be valid.

func movie(_ id: Int64) -> MediaKey { try! MediaKey(.movie, id) }
func tv(_ id: Int64) -> MediaKey { try! MediaKey(.tv, id) }
func accountHandle(_ text: String) -> AccountHandle { try! AccountHandle(text) }
func languageTag(_ text: String) -> LanguageTag { try! LanguageTag(text) }
func profileName(_ text: String) -> ProfileName { try! ProfileName(text) }
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A photo reference with a well-formed (64 lowercase hex digits) SHA-256 derived from `seed`.
func photoReference(
    _ seed: UInt64, contentType: String = "image/png", bytes: Int = 1_234, width: Int = 64, height: Int = 48
) -> PhotoReference {
    let hex = String(seed, radix: 16)
    let sha = String(repeating: "0", count: 64 - hex.count) + hex
    return PhotoReference(sha256: sha, contentType: contentType, bytes: bytes, width: width, height: height)
}

/// Base time of recorded events: 2023-11-14T22:13:20Z in microseconds.
let baseTime: Int64 = 1_700_000_000_000_000

/// Events as a stream records them: positions and stream versions counting up from the given
/// starts, one second apart.
func recorded(
    _ events: [DomainEvent], firstPosition: UInt64 = 1, firstVersion: UInt64 = 1, firstTime: Int64 = baseTime,
    step: Int64 = 1_000_000
) -> [RecordedDomainEvent] {
    events.enumerated().map { i, event in
        RecordedDomainEvent(
            event: event, position: firstPosition + UInt64(i), streamVersion: firstVersion + UInt64(i),
            recordedAt: firstTime + Int64(i) * step)
    }
}

/// The state a stream of `events` replays to.
func replayed(_ events: [DomainEvent]) -> AccountState { .replaying(recorded(events)) }


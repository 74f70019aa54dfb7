import EventLog
import Files
public import Foundation
import JSONKit
import Ledger

/// A Reel export read back and verified (the procedure of `Schemas/export.md`): every sealed
/// envelope hashes to its recorded hash and agrees with the clear fields, payloads match their
/// digests, the stream runs 1, 2, 3, … and the history replays to exactly the saved list and
/// settings the document states. Anything else is an `ExportError` naming where.
public struct ExportDocument: Sendable {
    public struct Event: Sendable {
        public let position: UInt64
        public let streamVersion: UInt64
        public let eventID: UUID
        public let type: String
        public let schemaVersion: UInt16
        public let recordedAt: Int64
        /// When the event was first recorded: `recordedAt`, except for an event a move between
        /// shards laid on another chain (its envelope, format 2, keeps this time).
        public let firstRecordedAt: Int64
        public let event: DomainEvent?
    }

    public let handle: AccountHandle
    public let sourceStream: String
    public let exportedAt: Int64
    public let events: [Event]
    /// The state the history replays to (equal to the document's saved list and settings).
    public let state: AccountState
    public let photo: (PhotoReference, [UInt8])?
    public let headPosition: UInt64
    public let headHash: String
    /// The checkpoint the export's proofs prove every event in (`transparency`), and the key it
    /// is signed with; `nil` for an export without them (made before the tree, or from a ledger
    /// whose tree was not built yet). Compare the key with the one the operator publishes.
    public let provedIn: (checkpoint: Checkpoint, key: String)?

    /// Every value the document would restore (handle, ids, name, language, photo reference and
    /// bytes, import sources) goes through the checks the commands apply to what a person types
    /// (`DomainEvent.checkAsInput`, `AccountService.photoReference`): a document that fails one is
    /// refused, naming the entry. Documents over `InputLimit.export` are refused unread.
    public init(parsing bytes: [UInt8], decoder: EventDecoder = .standard) throws(ExportError) {
        guard bytes.count <= InputLimit.export else {
            throw ExportError(where: "the file", "has \(bytes.count) bytes, more than the limit of \(InputLimit.words(InputLimit.export)) for an export")
        }
        // The history (nearly all of the file) is only delimited here; its events are parsed and
        // checked on all cores below, then linked up in order.
        let root: JSONValue
        let historyRanges: [Range<Int>]?
        do {
            (root, historyRanges) = try JSONValue.parse(bytes, deferringElementsOf: "history")
        } catch {
            throw ExportError(where: "line \(Self.line(at: error.offset, in: bytes))", "not a complete JSON document (\(error.reason))")
        }
        guard case .object(let top) = root else { throw ExportError(where: "line 1", "not a Reel export (a JSON object is expected)") }
        guard let format = top["format"]?.stringValue else { throw ExportError(where: "format", "missing: this is not a Reel export") }
        guard format == AccountExport.format else {
            if format.hasPrefix("reel-export/") {
                throw ExportError(where: "format", "\(format) is not a version this Reel reads (\(AccountExport.format)); upgrade Reel")
            }
            throw ExportError(where: "format", "\"\(format)\" is not a Reel export")
        }
        let account = try Self.object(top["account"], "account")
        guard let handleText = account["handle"]?.stringValue, let handle = try? AccountHandle(handleText) else {
            throw ExportError(where: "account.handle", "missing or not a valid handle")
        }
        guard let stream = account["stream"]?.stringValue, !stream.isEmpty else { throw ExportError(where: "account.stream", "missing") }
        guard account["status"]?.stringValue == "open" else {
            if account["status"]?.stringValue == "moved" {
                throw ExportError(where: "account.status", "the export is of an account moving to another shard, which cannot be restored: export it again once moved")
            }
            throw ExportError(where: "account.status", "the export is of a deleted account, which cannot be restored")
        }
        guard let exportedAt = top["exportedAt"]?.stringValue.flatMap(UTCTime.parse) else {
            throw ExportError(where: "exportedAt", "missing or not an RFC 3339 UTC time")
        }
        let chain = try Self.object(top["chain"], "chain")
        guard chain["layout"]?.stringValue == "reel-ledger/1" else {
            throw ExportError(where: "chain.layout", "\(chain["layout"]?.stringValue.map { "\"\($0)\"" } ?? "missing"): this Reel reads chains of layout reel-ledger/1")
        }
        guard let headPosition = chain["headPosition"]?.integerValue, headPosition > 0,
            let headHash = chain["headHash"]?.stringValue, ChainHash(hex: headHash) != nil
        else { throw ExportError(where: "chain", "headPosition and headHash are required") }

        guard let history = historyRanges else { throw ExportError(where: "history", "missing or not an array") }
        guard !history.isEmpty else { throw ExportError(where: "history", "empty: an account has at least its opening event") }
        guard account["events"]?.integerValue == Int64(history.count) else {
            throw ExportError(where: "account.events", "says \(account["events"]?.integerValue.map(String.init) ?? "nothing") but history holds \(history.count) events")
        }
        let checkedEvents: [Checked]
        do {
            checkedEvents = try Parallel.map(Array(history.enumerated()), threshold: 512, state: ()) { _, element in
                let (index, range) = element
                // An element exactly as Reel writes it is read in place; any other is parsed.
                guard let entry = try ExportedEntry.read(bytes, range) ?? ExportedEntry(json: Self.element(range, of: bytes, index: index)) else {
                    throw ExportError(where: "history[\(index)]", "not an object")
                }
                return try Self.event(entry, index: index, stream: Array(stream.utf8), decoder: decoder)
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(where: "history", "\(error)")
        }
        var events: [Event] = []
        events.reserveCapacity(history.count)
        var state = AccountState()
        var previous: (position: UInt64, hash: ChainHash, recordedAt: Int64)?
        for (index, checked) in checkedEvents.enumerated() {
            let event = checked.record
            let place = "history[\(index)] (position \(event.position))"
            guard event.streamVersion == UInt64(index + 1) else {
                throw ExportError(where: place, "stream version \(event.streamVersion), expected \(index + 1): an event is missing or out of order")
            }
            if let previous {
                guard event.position > previous.position else { throw ExportError(where: place, "positions do not increase") }
                guard event.recordedAt >= previous.recordedAt else { throw ExportError(where: place, "recorded before the event before it") }
                if event.position == previous.position + 1, checked.previousHash != previous.hash {
                    throw ExportError(where: place, "its previous hash is not the hash of the event before it")
                }
            } else if event.type != "account-opened" {
                throw ExportError(where: place, "the history does not start with account-opened")
            }
            if event.position == 1, checked.previousHash != .zero {
                throw ExportError(where: place, "the log's first event must link to the zero hash")
            }
            if event.type == "account-deleted" { throw ExportError(where: place, "the export is of a deleted account, which cannot be restored") }
            if let domain = event.event {
                state.apply(
                    RecordedDomainEvent(event: domain, position: event.position, streamVersion: event.streamVersion, recordedAt: event.firstRecordedAt))
            } else {
                state.skip(position: event.position, streamVersion: event.streamVersion)
            }
            events.append(event)
            previous = (event.position, checked.hash, event.recordedAt)
        }
        if let last = previous {
            guard last.position <= UInt64(headPosition) else {
                throw ExportError(where: "chain.headPosition", "\(headPosition) is before the last exported event (\(last.position))")
            }
            guard let headRecordedAt = chain["headRecordedAt"]?.stringValue.flatMap(UTCTime.parse), headRecordedAt >= last.recordedAt else {
                throw ExportError(where: "chain.headRecordedAt", "missing, or before the last exported event was recorded")
            }
            if last.position == UInt64(headPosition) {
                guard last.hash.hex == headHash.lowercased() else {
                    throw ExportError(where: "chain.headHash", "is not the hash of the last event, which is at the head position")
                }
                guard headRecordedAt == last.recordedAt else {
                    throw ExportError(where: "chain.headRecordedAt", "is not when the last event, which is at the head position, was recorded")
                }
            }
        }
        guard account["openedAt"]?.stringValue == state.openedAt.map(UTCTime.iso) else {
            throw ExportError(where: "account.openedAt", "is not when the history opened the account")
        }
        guard state.handle == handle else {
            throw ExportError(where: "account.handle", "'\(handle)' is not the handle the history opened ('\(state.handle?.value ?? "none")')")
        }
        let photo = try Self.photo(top["settings"])
        try Self.compare(state, saved: top["saved"], settings: top["settings"], photo: photo?.0)

        self.handle = handle
        self.sourceStream = stream
        self.exportedAt = exportedAt
        self.events = events
        self.state = state
        self.photo = photo
        self.headPosition = UInt64(headPosition)
        self.headHash = headHash.lowercased()
        self.provedIn = try Self.transparency(top["transparency"], checkedEvents)
    }

    /// Checks `transparency` (absent or null in an export without proofs): the checkpoint signed
    /// by the key the export names, and each history entry's inclusion proof, in order, from its
    /// envelope's leaf to the checkpoint's tree.
    private static func transparency(_ value: JSONValue?, _ events: [Checked]) throws(ExportError) -> (checkpoint: Checkpoint, key: String)? {
        guard let value, value != .null else { return nil }
        guard case .object(let members) = value, let note = members["checkpoint"]?.stringValue, let key = members["key"]?.stringValue,
            case .array(let proofs)? = members["proofs"]
        else { throw ExportError(where: "transparency", "needs checkpoint, key and proofs") }
        guard let verifier = NoteVerifier(key), verifier.kind == .signature else {
            throw ExportError(where: "transparency.key", "is not a checkpoint key (name+hash+base64)")
        }
        guard let body = verifier.open(note), let checkpoint = Checkpoint(body: body), checkpoint.origin == verifier.name else {
            throw ExportError(where: "transparency.checkpoint", "is not a checkpoint signed by the key \(verifier.name)")
        }
        guard proofs.count == events.count else {
            throw ExportError(where: "transparency.proofs", "\(proofs.count) proofs for \(events.count) events")
        }
        for (index, (proof, event)) in zip(proofs, events).enumerated() {
            let place = "transparency.proofs[\(index)] (position \(event.record.position))"
            guard case .array(let items) = proof else { throw ExportError(where: place, "not an array of hashes") }
            let hashes = items.compactMap { $0.stringValue.flatMap(TreeHash.init(base64:)) }
            guard hashes.count == items.count else { throw ExportError(where: place, "holds something that is not a hash in base64") }
            guard event.record.position <= checkpoint.size,
                TreeProofs.checkInclusion(
                    leaf: event.leaf, index: event.record.position - 1, size: checkpoint.size, proof: hashes, root: checkpoint.root)
            else { throw ExportError(where: place, "does not prove the event in the checkpoint's tree (\(checkpoint.size) events)") }
        }
        return (checkpoint, key)
    }

    /// The events that restore this account as `handle`: `account opened`, then the history's
    /// own events, favorites as `favorite-imported` keeping when they were saved. `skipped`
    /// counts events of types this Reel does not know, which cannot be carried over.
    public func restoredEvents(as handle: AccountHandle) -> (events: [DomainEvent], skipped: Int) {
        var restored: [DomainEvent] = [.accountOpened(handle)]
        var skipped = 0
        for event in events.dropFirst() {
            switch event.event {
            case .favoriteAdded(let key)?: restored.append(.favoriteImported(key, addedAt: event.firstRecordedAt, source: "reel"))
            // A move between shards is the source ledger's history, not the restored account's.
            case .accountOpened?, .accountDeleted?, .accountMovedIn?, .accountMovedOut?: continue
            case let domain?: restored.append(domain)
            case nil: skipped += 1
            }
        }
        return (restored, skipped)
    }

    // MARK: - Pieces

    /// The history's element at `range`, parsed.
    private static func element(_ range: Range<Int>, of bytes: [UInt8], index: Int) throws(ExportError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes[range])
        } catch {
            throw ExportError(where: "history[\(index)] (line \(line(at: range.lowerBound + error.offset, in: bytes)))", "not valid JSON (\(error.reason))")
        }
    }

    /// The 1-based line of a byte offset.
    private static func line(at offset: Int, in bytes: [UInt8]) -> Int {
        bytes.prefix(min(offset, bytes.count)).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    private static func object(_ value: JSONValue?, _ name: String) throws(ExportError) -> [String: JSONValue] {
        guard case .object(let members)? = value else { throw ExportError(where: name, "missing or not an object") }
        return members
    }

    /// An event read and checked, with the chain links the document-wide checks need.
    private struct Checked: Sendable {
        let record: Event
        let previousHash: ChainHash
        let hash: ChainHash
        /// The envelope's leaf hash in the ledger's Merkle tree.
        let leaf: TreeHash
    }

    private static func event(_ e: ExportedEntry, index: Int, stream: [UInt8], decoder: EventDecoder) throws(ExportError) -> Checked {
        var place = "history[\(index)]"
        guard let position = e.position, position > 0 else { throw ExportError(where: place, "position is missing") }
        place += " (position \(position))"
        guard let encoded = e.envelope, let bytes = CanonicalBase64.decode(encoded) else {
            throw ExportError(where: place, "envelope is missing or not canonical base64")
        }
        let parsed: Result<(Envelope, intact: Bool), EnvelopeDecodingError> = bytes.withUnsafeBytes { bytes in
            Result { () throws(EnvelopeDecodingError) in (try Envelope(bytes: bytes), Envelope.hashMatches(bytes)) }
        }
        let envelope: Envelope
        switch parsed {
        case .failure(let error): throw ExportError(where: place, "the envelope does not parse: \(error)")
        case .success(let (decoded, intact)):
            guard intact else { throw ExportError(where: place, "the envelope's bytes do not hash to its hash: it was altered") }
            envelope = decoded
        }
        func clear(_ name: String, _ matches: Bool) throws(ExportError) {
            if !matches { throw ExportError(where: place, "\(name) differs from the sealed envelope's") }
        }
        try clear("position", UInt64(position) == envelope.position)
        try clear("streamVersion", e.streamVersion == Int64(envelope.streamVersion))
        try clear("eventId", e.eventID.map { Hex.matches($0, uuid: envelope.eventID) } ?? false)
        try clear("type", e.type?.elementsEqual(envelope.type.utf8) ?? false)
        try clear("schemaVersion", e.schemaVersion == Int64(envelope.schemaVersion))
        try clear("recordedAt", e.recordedAt?.elementsEqual(UTCTime.iso(envelope.recordedAtMicroseconds).utf8) ?? false)
        try clear("hash", e.hash.map { Hex.matches($0, envelope.hash.bytes) } ?? false)
        try clear("previousHash", e.previousHash.map { Hex.matches($0, envelope.previousHash.bytes) } ?? false)
        try clear("stream", envelope.streamID.rawValue.utf8.elementsEqual(stream))
        guard let payload = e.payload else { throw ExportError(where: place, "payload is missing") }
        let canonical: ArraySlice<UInt8>
        switch payload {
        case .canonical(let bytes): canonical = bytes
        case .parsed(let value): canonical = value.encoded()[...]
        }
        let digestMatches = e.payloadSha256.map { text in canonical.withUnsafeBytes { ChainHash.sha256($0) { Hex.matches(text, $0) } } }
        guard digestMatches ?? false else {
            throw ExportError(where: place, "the payload does not match its payloadSha256: it was altered")
        }
        let domain: DomainEvent?
        do {
            switch payload {
            case .canonical(let bytes):
                let type = Array(envelope.type.utf8)
                domain = try decoder.decode(type: type.span.bytes, schemaVersion: envelope.schemaVersion, payload: bytes.span.bytes)
            case .parsed(let value):
                domain = try decoder.decodeUpcasting(type: envelope.type, schemaVersion: envelope.schemaVersion, value: value)?.event
            }
        } catch {
            throw ExportError(where: place, error.description)
        }
        // What it would restore, checked as the commands check what a person gives them.
        do {
            try domain?.checkAsInput()
        } catch {
            throw ExportError(where: place, "\(envelope.type): \(error.description)")
        }
        return Checked(
            record: Event(
                position: envelope.position, streamVersion: envelope.streamVersion, eventID: envelope.eventID, type: envelope.type,
                schemaVersion: envelope.schemaVersion, recordedAt: envelope.recordedAtMicroseconds,
                firstRecordedAt: envelope.firstRecordedAtMicroseconds, event: domain),
            previousHash: envelope.previousHash, hash: envelope.hash, leaf: TreeHash.leaf(bytes))
    }

    /// The longest base64 text of a photo within the limit.
    static let maximumPhotoText = (PhotoFormat.maximumBytes + 2) / 3 * 4

    /// The photo and its bytes, checked by content as `settings photo` checks a file: a JPEG or a
    /// PNG within 5 MB whose reference (type, size, dimensions) is what its bytes are.
    private static func photo(_ settings: JSONValue?) throws(ExportError) -> (PhotoReference, [UInt8])? {
        guard let photo = settings?["photo"], photo != .null else { return nil }
        // The length first: a huge data field is refused before it is decoded.
        if let text = photo["data"]?.stringValue, text.utf8.count > maximumPhotoText {
            throw ExportError(
                where: "settings.photo",
                "invalid photo: its data holds more than the limit of \(InputLimit.words(PhotoFormat.maximumBytes)) for a photo")
        }
        guard let sha = photo["sha256"]?.stringValue, let type = photo["contentType"]?.stringValue,
            let size = photo["bytes"]?.integerValue, let width = photo["width"]?.integerValue, let height = photo["height"]?.integerValue,
            let text = photo["data"]?.stringValue, let bytes = CanonicalBase64.decode(Array(text.utf8))
        else { throw ExportError(where: "settings.photo", "incomplete (sha256, contentType, bytes, width, height and canonical base64 data)") }
        guard bytes.count == size, ContentDigest.sha256Hex(bytes) == sha else {
            throw ExportError(where: "settings.photo", "the photo's data does not match its size and SHA-256")
        }
        let stated = PhotoReference(sha256: sha, contentType: type, bytes: Int(size), width: Int(width), height: Int(height))
        let actual: PhotoReference
        do {
            actual = try AccountService.photoReference(for: bytes)
        } catch {
            throw ExportError(where: "settings.photo", "\(error)")
        }
        guard actual == stated else {
            throw ExportError(
                where: "settings.photo",
                "invalid photo: its data is a \(actual.contentType == "image/png" ? "PNG" : "JPEG") of \(actual.width)x\(actual.height) pixels, not the \(stated.contentType) of \(stated.width)x\(stated.height) it states")
        }
        return (stated, bytes)
    }

    /// The saved list and settings the document states must be what its history replays to.
    private static func compare(_ state: AccountState, saved: JSONValue?, settings: JSONValue?, photo: PhotoReference?) throws(ExportError) {
        guard case .array(let items)? = saved else { throw ExportError(where: "saved", "missing") }
        guard items.count == state.saved.count else {
            throw ExportError(where: "saved", "lists \(items.count) titles but the history saves \(state.saved.count)")
        }
        for (index, (item, replayed)) in zip(items, state.saved.items).enumerated() {
            let matches =
                item["mediaType"]?.stringValue == replayed.key.mediaType.rawValue && item["id"]?.integerValue == replayed.key.id
                && item["addedAt"]?.stringValue == UTCTime.iso(replayed.addedAt) && item["position"]?.integerValue == Int64(replayed.position)
            guard matches else {
                throw ExportError(where: "saved[\(index)]", "is not what the history saved there (\(replayed.key), added \(UTCTime.iso(replayed.addedAt)))")
            }
        }
        guard case .object(let s)? = settings else { throw ExportError(where: "settings", "missing") }
        guard (s["name"]?.stringValue) == state.settings.name?.value, s["language"]?.stringValue == state.settings.language.value else {
            throw ExportError(where: "settings", "name or language is not what the history set")
        }
        guard photo == state.settings.photo else {
            throw ExportError(where: "settings.photo", "is not the photo the history set (digest, type, size and dimensions)")
        }
    }
}

/// Why a file is not a verifiable Reel export, and where: one line.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public let location: String
    public let reason: String

    /// Values from the file that a message quotes are shown with control and bidi characters
    /// escaped (`\u{1B}`): the file may be hostile, and the message goes to a terminal.
    init(where location: String, _ reason: String) {
        self.location = Self.printable(location)
        self.reason = Self.printable(reason)
    }

    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the bidi controls that reorder what follows them.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    public var description: String { "\(location): \(reason)" }
}

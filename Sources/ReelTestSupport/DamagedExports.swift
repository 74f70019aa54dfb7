import Foundation

/// Files `reel account import` and `verify-export` must refuse, each made from a good export of
/// the `mover` account the account-move tests build (9 events, interleaved with another
/// account's; a name, a photo, German). Shared by the in-process refusal tests (ReelTests, every
/// file through `Application`) and the binary's (EndToEndTests, a few through `reel`).
public enum DamagedExports {
    /// The mover's profile name, which `payloadByte` changes a letter of.
    public static let name = "Mo Ver-Unique"

    /// A 1×1 PNG: the mover's photo, and a file that is not an export.
    public static let png = Array(
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

    /// The fixture's own assumptions about the good export's layout (a line a history entry, the
    /// photo on line 6): a changed layout stops the test that made the file, at once.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        precondition(condition, "a damaged export's fixture: \(message())")
    }

    /// A file `reel account import` and `verify-export` must refuse, made from a good export.
    public enum BadFile: String, CaseIterable, CustomStringConvertible, Sendable {
        // A Reel export, damaged.
        case truncated, payloadByte, envelopeByte, changedHash, deletedEntry, deletedEntryAndCount, swappedEntries, version2
        // Not a Reel export at all.
        case png, foreignJSON, empty, missing
        // Other apps' lists that do not parse.
        case letterboxdMissingColumn, brokenQuoting, imdbMissingConst, imdbMissingConstNamed, traktObject, traktObjectNamed, traktBadEntry

        public var description: String { rawValue }

        public var isList: Bool {
            [.letterboxdMissingColumn, .brokenQuoting, .imdbMissingConst, .imdbMissingConstNamed, .traktObject, .traktObjectNamed, .traktBadEntry]
                .contains(self)
        }

        public var fileExtension: String {
            switch self {
            case .png: "png"
            case .letterboxdMissingColumn, .brokenQuoting, .imdbMissingConst, .imdbMissingConstNamed: "csv"
            default: "json"
            }
        }

        /// `import`'s exit status: 65 for a file that is recognised but does not verify or parse,
        /// 64 for one whose format is not recognised, 66 for no file.
        public var importStatus: Int32 {
            switch self {
            case .png, .foreignJSON, .empty, .imdbMissingConst, .traktObject: 64
            case .missing: 66
            default: 65
            }
        }

        /// `verify-export`'s exit status (every file that is not a good export is 65), or nil
        /// for lists, which it is not for.
        public var verifyStatus: Int32? { isList ? nil : (self == .missing ? 66 : 65) }

        public var importArguments: [String] {
            switch self {
            case .imdbMissingConstNamed: ["--format", "imdb"]
            case .traktObjectNamed: ["--format", "trakt"]
            default: []
            }
        }
    }

    /// The lines of an export and the indices of its history entries' lines (one entry a line).
    public static func historyLines(_ lines: [String]) -> [Int] {
        lines.indices.filter { lines[$0].hasPrefix("{\"position\":") }
    }

    public static func position(ofEntry line: String) -> Int {
        let object = try? JSONSerialization.jsonObject(with: Data((line.hasSuffix(",") ? String(line.dropLast()) : line).utf8))
        return (object as? [String: Any])?["position"] as? Int ?? -1
    }

    /// Replaces the character at `offset` (counted in characters) of `line`.
    public static func replacing(_ line: String, at offset: Int, with character: Character) -> String {
        var characters = Array(line)
        characters[offset] = character
        return String(characters)
    }

    /// The bad file's bytes (nil: no file) and what the refusals of `import` and `verify-export`
    /// must name (the line, the history entry and its position, the member, or the entry).
    public static func make(_ bad: BadFile, from export: String) -> (bytes: [UInt8]?, importNaming: [String], verifyNaming: [String]) {
        var lines = export.components(separatedBy: "\n")
        let entries = historyLines(lines)
        require(entries.count == 9, "the export has one line per event: \(entries)")
        func entry(_ i: Int) -> String { "history[\(i)] (position \(position(ofEntry: lines[entries[i]])))" }
        func both(_ naming: [String]) -> ([UInt8]?, [String], [String]) { (Array(lines.joined(separator: "\n").utf8), naming, naming) }
        switch bad {
        case .truncated:
            let cut = Array(export.utf8).prefix(export.utf8.count / 2)
            let line = cut.filter { $0 == 0x0A }.count + 1
            return (Array(cut), ["line \(line)", "not a complete JSON document"], ["line \(line)", "not a complete JSON document"])
        case .payloadByte:
            // history[4] is the name change: one letter of the name, inside the payload only.
            let where_ = entry(4)
            require(lines[entries[4]].contains("\"payload\":{\"name\":\"\(name)\"}"), "\(lines[entries[4]])")
            lines[entries[4]] = lines[entries[4]].replacingOccurrences(of: name, with: String(name.dropLast()) + "3")
            return both([where_, "payloadSha256"])
        case .envelopeByte:
            let line = lines[entries[1]]
            let start = line.distance(from: line.startIndex, to: line.range(of: "\"envelope\":\"")!.upperBound)
            let middle = start + (line.count - 2 - start) / 2
            let old = Array(line)[middle]
            lines[entries[1]] = replacing(line, at: middle, with: old == "A" ? "B" : "A")
            return both([entry(1), "envelope"])
        case .changedHash:
            let line = lines[entries[2]]
            let start = line.distance(from: line.startIndex, to: line.range(of: ",\"hash\":\"")!.upperBound)
            lines[entries[2]] = replacing(line, at: start, with: Array(line)[start] == "0" ? "1" : "0")
            return both([entry(2), "hash"])
        case .deletedEntry:
            // The count no longer matches: the first check to fail names account.events.
            lines.remove(at: entries[3])
            return both(["account.events", "says 9 but history holds 8"])
        case .deletedEntryAndCount:
            let missing = entry(4)  // what becomes history[3]
            lines.remove(at: entries[3])
            require(lines[4].contains("\"events\":9"), "\(lines[4])")
            lines[4] = lines[4].replacingOccurrences(of: "\"events\":9", with: "\"events\":8")
            return both([missing.replacingOccurrences(of: "history[4]", with: "history[3]"), "stream version 5, expected 4"])
        case .swappedEntries:
            let moved = entry(4).replacingOccurrences(of: "history[4]", with: "history[3]")
            lines.swapAt(entries[3], entries[4])
            return both([moved, "stream version 5, expected 4"])
        case .version2:
            require(lines[1] == "\"format\": \"reel-export/1\",", "\(lines[1])")
            lines[1] = "\"format\": \"reel-export/2\","
            return both(["format", "reel-export/2 is not a version this Reel reads"])
        case .png:
            return (png, ["not a file Reel can import"], ["line 1", "not a complete JSON document"])
        case .foreignJSON:
            return (Array("{\"title\": \"Fight Club\", \"year\": 1999}\n".utf8), ["not a file Reel can import"], ["format", "not a Reel export"])
        case .empty:
            return ([], ["not a file Reel can import"], ["line 1", "not a complete JSON document"])
        case .missing:
            return (nil, ["no such file"], ["no such file"])
        case .letterboxdMissingColumn:
            return (Array("Date,Name,Letterboxd URI\n2024-01-02,Fight Club,https://boxd.it/2bcA\n".utf8), ["line 1", "no Year column"], [])
        case .brokenQuoting:
            let csv = """
                Date,Name,Year,Letterboxd URI
                2024-01-02,Heat,1995,https://boxd.it/29Wq
                2024-01-03,"Alien,1979,https://boxd.it/2aKa
                2024-01-04,Up,2009,https://boxd.it/1Yk2

                """
            return (Array(csv.utf8), ["line 3, column 12", "unterminated quoted field"], [])
        case .imdbMissingConst, .imdbMissingConstNamed:
            let csv = """
                Position,Created,Modified,Description,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors
                1,2022-01-10,2022-01-10,,Fight Club,https://www.imdb.com/title/tt0137523/,Movie,8.8,139,1999,Drama,2300000,1999-10-15,David Fincher

                """
            return (Array(csv.utf8), bad == .imdbMissingConst ? ["not a file Reel can import", "--format"] : ["line 1", "no Const column"], [])
        case .traktObject, .traktObjectNamed:
            let json = #"{"movies": [{"type": "movie", "movie": {"title": "Inception", "year": 2010, "ids": {"tmdb": 27205}}}]}"#
            return (Array(json.utf8), bad == .traktObject ? ["not a file Reel can import"] : ["holds an object, not a JSON array"], [])
        case .traktBadEntry:
            let json = #"[{"type": "movie", "movie": {"title": "Inception", "year": 2010, "ids": {"tmdb": 27205}}}, "Heat"]"#
            return (Array(json.utf8), ["entry 2 (index 1)", "a string instead of an object"], [])
        }
    }

    /// Exports the procedure of `Schemas/export.md` rejects for subtler reasons: what Reel must
    /// refuse like the independent verifier does (exit 65 naming where, nothing imported).
    public enum SubtleFile: String, CaseIterable, CustomStringConvertible, Sendable {
        /// A member twice in one object (step 1: "an object with the same key twice is rejected").
        case duplicateMember, duplicateMemberInPayload
        /// `chain.layout` is not `reel-ledger/1` (step 5).
        case otherChainLayout
        /// An envelope whose base64 decodes to the right bytes but does not re-encode to the same
        /// text (step 3).
        case nonCanonicalEnvelopeBase64
        /// The photo's data in non-canonical base64 (step 6: "data base64-decodes (canonically)").
        case nonCanonicalPhotoBase64

        public var description: String { rawValue }
    }

    /// `text` (standard base64 with padding) with the unused low bits of its last character set
    /// differently: other text, the same bytes. `nil` when it has no padding (no spare bits).
    public static func nonCanonical(_ text: String) -> String? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let padding = text.reversed().prefix { $0 == "=" }.count
        guard padding > 0 else { return nil }
        var characters = Array(text)
        let last = characters.count - padding - 1
        guard let index = alphabet.firstIndex(of: characters[last]) else { return nil }
        characters[last] = alphabet[index ^ 1]
        return String(characters)
    }

    public static func make(_ subtle: SubtleFile, from export: String) -> (bytes: [UInt8], naming: [String]) {
        var lines = export.components(separatedBy: "\n")
        let entries = historyLines(lines)
        func done(_ naming: [String]) -> ([UInt8], [String]) { (Array(lines.joined(separator: "\n").utf8), naming) }
        switch subtle {
        case .duplicateMember:
            require(lines[3].hasPrefix("\"generator\": "), "\(lines[3])")
            lines.insert("\"generator\": \"someone else 1.0\",", at: 3)
            return done(["line 5", "\"generator\""])
        case .duplicateMemberInPayload:
            let line = lines[entries[4]]
            lines[entries[4]] = line.replacingOccurrences(of: "\"payload\":{\"name\":", with: "\"payload\":{\"name\":\"Someone Else\",\"name\":")
            require(lines[entries[4]] != line, "the payload has a name")
            return done(["line \(entries[4] + 1)", "\"name\""])
        case .otherChainLayout:
            let last = lines.lastIndex { $0.hasPrefix("\"chain\": ") }!
            require(lines[last].contains("\"layout\":\"reel-ledger/1\""), "\(lines[last])")
            lines[last] = lines[last].replacingOccurrences(of: "\"layout\":\"reel-ledger/1\"", with: "\"layout\":\"reel-ledger/2\"")
            return done(["chain", "layout"])
        case .nonCanonicalEnvelopeBase64:
            for i in 0..<entries.count {
                let line = lines[entries[i]]
                let object = try? JSONSerialization.jsonObject(with: Data((line.hasSuffix(",") ? String(line.dropLast()) : line).utf8))
                guard let envelope = (object as? [String: Any])?["envelope"] as? String, let changed = nonCanonical(envelope) else { continue }
                require(Data(base64Encoded: changed) == Data(base64Encoded: envelope) && changed != envelope, "the same bytes in other text")
                lines[entries[i]] = line.replacingOccurrences(of: envelope, with: changed)
                return done(["history[\(i)] (position \(position(ofEntry: line)))", "envelope"])
            }
            preconditionFailure("no envelope with padding")
        case .nonCanonicalPhotoBase64:
            let data = Data(png).base64EncodedString()
            let changed = nonCanonical(data)!
            require(Data(base64Encoded: changed) == Data(png) && lines[5].contains(data), "\(lines[5])")
            lines[5] = lines[5].replacingOccurrences(of: data, with: changed)
            return done(["settings.photo"])
        }
    }
}

import JSONKit
import Ledger

/// Trakt's list JSON, as its API and its data export give a watchlist (and other lists): an array
/// of entries such as `{"rank":1,"listed_at":"2024-01-02T03:04:05.000Z","type":"movie",
/// "movie":{"title":"Fight Club","year":1999,"ids":{"trakt":432,"imdb":"tt0137523","tmdb":550}}}`.
///
/// `movie` entries are movies and `show` entries series; `season`, `episode` and `person` entries
/// (and types not known here) are read without a media type, to be reported as unmatched. An entry
/// without `type` takes it from the object it holds (`movie` or `show`), as in Trakt's
/// watched and collection exports. `listed_at` (else `rated_at`, `last_watched_at`, `watched_at`,
/// `collected_at`) is when the title was added. Missing ids are left out; a TMDb or IMDb id that is
/// not one (checked as `fav add` checks an id), an entry that is not an object, or one that lacks
/// the object its type names, is an error naming its position.
public enum TraktJSON {
    public static func read(_ bytes: [UInt8]) throws(InterchangeError) -> [ImportedTitle] {
        let text = Array(bytes[TextPosition.byteOrderMarkLength(bytes)...])
        guard text.contains(where: { !Self.isSpace($0) }) else { throw .emptyFile }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            let position = TextPosition(of: min(error.offset, text.count), in: text)
            throw .invalidJSON(line: position.line, column: position.column, reason: error.reason)
        }
        guard case .array(let entries) = document else {
            throw .notAList(format: "a Trakt list", found: describe(document))
        }
        var titles: [ImportedTitle] = []
        titles.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            titles.append(try title(of: entry, position: index + 1))
        }
        return titles
    }

    private static let dateMembers = ["listed_at", "rated_at", "last_watched_at", "watched_at", "collected_at"]

    private static func title(of entry: JSONValue, position: Int) throws(InterchangeError) -> ImportedTitle {
        guard case .object(let members) = entry else {
            throw .invalidEntry(position: position, problem: "\(describe(entry)) instead of an object with a \"type\"")
        }
        let type: String
        switch members["type"] {
        case .string(let named)?: type = named
        case nil, .null?:
            guard let inferred = ["episode", "season", "movie", "show"].first(where: { members[$0]?.objectValue != nil }) else {
                throw .invalidEntry(position: position, problem: "no \"type\", and no \"movie\" or \"show\" object")
            }
            type = inferred
        case let other?:
            throw .invalidEntry(position: position, problem: "\"type\" is \(describe(other)), not a string")
        }
        var addedAt: Int64?
        for name in dateMembers {
            guard let value = members[name], value != .null else { continue }
            guard let text = value.stringValue, let micros = InterchangeDate.parse(text) else {
                throw .invalidEntry(position: position, problem: "\"\(name)\" is not an ISO 8601 date-time: \(value.text)")
            }
            addedAt = micros
            break
        }
        let location = ImportedTitle.Location.entry(position)
        switch type {
        case "movie", "show":
            guard let item = members[type]?.objectValue else {
                throw .invalidEntry(position: position, problem: "type \"\(type)\" but no \"\(type)\" object")
            }
            let ids = item["ids"]?.objectValue ?? [:]
            return ImportedTitle(
                location: location, mediaType: type == "movie" ? .movie : .tv, kind: type, tmdbID: try tmdbID(ids["tmdb"], position: position),
                imdbID: try imdbID(ids["imdb"], position: position), title: text(item["title"]), year: year(item["year"]), addedAt: addedAt)
        case "season", "episode":
            let show = members["show"]?.objectValue ?? [:]
            let part = members[type]?.objectValue ?? [:]
            var name = text(show["title"])
            let season = part["season"]?.integerValue ?? (type == "season" ? part["number"]?.integerValue : nil)
            if let season, let shown = name {
                let episode = type == "episode" ? part["number"]?.integerValue.map { "E" + pad($0) } ?? "" : ""
                name = "\(shown) S\(pad(season))\(episode)"
            }
            return ImportedTitle(location: location, mediaType: nil, kind: type, title: name, year: year(show["year"]), addedAt: addedAt)
        case "person":
            let person = members["person"]?.objectValue ?? [:]
            return ImportedTitle(location: location, mediaType: nil, kind: type, title: text(person["name"]), addedAt: addedAt)
        default:
            return ImportedTitle(location: location, mediaType: nil, kind: type, addedAt: addedAt)
        }
    }

    /// A TMDb id as a JSON number (or a string of digits), checked as `fav add` checks one
    /// (`MediaKey`); `nil` when missing (absent, null or empty), an error naming the entry when
    /// it is anything else.
    private static func tmdbID(_ value: JSONValue?, position: Int) throws(InterchangeError) -> Int64? {
        switch value {
        case nil, .null?, .string("")?: return nil
        case .integer(let id)? where id > 0 && id <= MediaKey.maximumID: return id
        case .string(let text)? where !text.isEmpty && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }):
            if let id = Int64(text), id > 0, id <= MediaKey.maximumID { return id }
        default: break
        }
        let shown = value.map { InterchangeError.quoted($0.stringValue ?? $0.text) } ?? ""
        throw .invalidEntry(position: position, problem: "ids.tmdb \(shown) is not a TMDb id (a positive whole number up to \(MediaKey.maximumID))")
    }

    /// An IMDb title id (`tt` and digits); `nil` when missing, an error naming the entry when it
    /// is anything else.
    private static func imdbID(_ value: JSONValue?, position: Int) throws(InterchangeError) -> String? {
        switch value {
        case nil, .null?, .string("")?: return nil
        case .string(let text)? where ImportedTitle.isIMDbID(text): return text
        default:
            let shown = value.map { InterchangeError.quoted($0.stringValue ?? $0.text) } ?? ""
            throw .invalidEntry(position: position, problem: "ids.imdb \(shown) is not an IMDb title id (tt followed by digits)")
        }
    }

    private static func text(_ value: JSONValue?) -> String? {
        FieldValue.text(value?.stringValue ?? "")
    }

    private static func year(_ value: JSONValue?) -> Int? {
        guard let year = value?.integerValue, (1000...9999).contains(year) else { return nil }
        return Int(year)
    }

    private static func pad(_ number: Int64) -> String {
        number < 10 && number >= 0 ? "0\(number)" : String(number)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// What kind of JSON value this is, for messages: “an object”, “a string”.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Reel
import ReportJSON

/// One page of the saved list (`GET /v1/saved?limit=N`): the items after the cursor, and the
/// address of the next page, whose cursor names the last item given (its key and place). The next
/// page starts after that item wherever it is now, so a title added or removed between two pages
/// neither repeats one nor skips one; when the item itself is gone, at its old place.
struct SavedPage {
    /// Where a page starts: after the item with `key`, found at `index` when it was given.
    struct Cursor {
        let key: MediaKey
        let index: Int

        init(key: MediaKey, index: Int) {
            self.key = key
            self.index = index
        }

        /// `movie.550.49` in base64url, as `text` carries it; anything else is a usage problem.
        init(text: String) throws {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let parts = Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) }?.split(separator: ".") ?? []
            guard text.count <= 64, parts.count == 3, let type = MediaType(rawValue: String(parts[0])), let id = Int64(parts[1]),
                let index = Int(parts[2]), index >= 0, let key = try? MediaKey(type, id)
            else { throw Problem.usage("cursor=\(SafeText.line(String(text.prefix(64)))): not a cursor this service gave (take the next page's from its Link)") }
            self.init(key: key, index: index)
        }

        var text: String {
            Data("\(key.mediaType.rawValue).\(key.id).\(index)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
    }

    /// Items on a page when a cursor comes without `limit`.
    static let defaultLimit = 100

    let answer: SavedAnswers.Answer
    /// The next page's path and query, nil on the last page.
    let next: String?

    init(_ page: SavedListPage, query: SavedListQuery, limit: Int) {
        var bytes = ReportJSON.saved(page.report, query: query, page: page.range).encoded()
        bytes.append(UInt8(ascii: "\n"))
        answer = SavedAnswers.Answer(body: ByteBuffer(bytes: bytes), etag: EntityTag.of(bytes))
        next = page.next.map { Self.path(query, limit: limit, cursor: Cursor(key: $0.key, index: $0.index)) }
    }

    /// `/v1/saved?…` asking `query` again from `cursor`: built from what was understood, never
    /// from the request's own text.
    static func path(_ query: SavedListQuery, limit: Int, cursor: Cursor) -> String {
        var parts: [(String, String)] = []
        if let type = query.mediaType { parts.append(("type", type.rawValue)) }
        if let search = query.search { parts.append(("search", search)) }
        parts.append(("sort", query.order.rawValue))
        parts.append(("descending", query.descending ? "true" : "false"))
        for genre in query.genres { parts.append(("genre", genre)) }
        if query.anyGenre { parts.append(("anyGenre", "true")) }
        if let asOf = query.asOf { parts.append(("asOf", Self.text(of: asOf))) }
        parts.append(("limit", String(limit)))
        parts.append(("cursor", cursor.text))
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "/v1/saved?" + parts.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    /// `asOf` as the query writes it (`1234`, `v12`, `2026-11-24T07:56:00.000000Z`).
    static func text(of asOf: AsOf) -> String {
        switch asOf {
        case .position(let position): String(position)
        case .streamVersion(let version): "v\(version)"
        case .time(let micros): UTCTime.iso(micros)
        }
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288): the next page of a list.
    static let link = HTTPField.Name("Link")!
}

/// One `name=value` pair of a request's query string.
public struct QueryItem: Sendable, Hashable, Comparable {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public static func < (a: QueryItem, b: QueryItem) -> Bool { (a.name, a.value) < (b.name, b.value) }

    /// `name=value`, percent-encoded: unreserved characters and `,` stay (TMDb's AND separator),
    /// everything else (`|`, `+`, space, `&`, non-ASCII) becomes `%XX` of its UTF-8 bytes.
    public var encoded: String { Self.escape(name) + "=" + Self.escape(value) }

    static func escape(_ text: String) -> String {
        func unreserved(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
                true
            default: false
            }
        }
        // Most values (languages, ids, pages) need no escape: keep them as they are.
        if text.utf8.allSatisfy(unreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if unreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes one component of a query string: `%XX` escapes and `+` as a space (form encoding,
    /// as servers read it). Nil for a broken escape or bytes that are not UTF-8.
    public static func unescape<S: StringProtocol>(_ text: S) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let c = iterator.next() {
            if c == UInt8(ascii: "%") {
                guard let h = iterator.next().flatMap(hexValue), let l = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(h << 4 | l)
            } else if c == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Parses `a=1&b=2` into items (in the order given). Nil when an escape is broken.
    public static func parse<S: StringProtocol>(query: S) -> [QueryItem]? {
        var items: [QueryItem] = []
        for part in query.split(separator: "&") where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(pieces[0]), let value = unescape(pieces.count > 1 ? pieces[1] : "") else { return nil }
            items.append(QueryItem(name, value))
        }
        return items
    }
}

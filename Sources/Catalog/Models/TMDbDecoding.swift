/// How Reel reads TMDb's real-world shapes (see `reference/tmdb/notes.md`): fields come and go,
/// images and ids are null, unknown dates and texts are `""`. These readers make each of those
/// an absent value instead of a decoding failure, while a field of the wrong type still fails.
extension KeyedDecodingContainer {
    /// A string that may be missing, null or `""`; all three are nil.
    func text(_ key: Key) throws -> String? {
        guard let s = try decodeIfPresent(String.self, forKey: key), !s.isEmpty else { return nil }
        return s
    }

    /// A required string; null or missing reads as `""` only where TMDb is known to omit it.
    func string(_ key: Key) throws -> String {
        try decode(String.self, forKey: key)
    }

    /// A `YYYY-MM-DD` day that may be missing, null or `""`.
    func day(_ key: Key) throws -> TMDbDate? {
        guard let s = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return TMDbDate(parsing: s)
    }

    /// A list that may be missing or null: both read as empty.
    func list<T: Decodable>(_ key: Key) throws -> [T] {
        try decodeIfPresent([T].self, forKey: key) ?? []
    }

    func list<T: Decodable>(_ type: T.Type, _ key: Key) throws -> [T] {
        try decodeIfPresent([T].self, forKey: key) ?? []
    }

    /// A number TMDb sometimes writes as an integer literal (`5`) and sometimes omits.
    func number(_ key: Key) throws -> Double {
        try decodeIfPresent(Double.self, forKey: key) ?? 0
    }

    func flag(_ key: Key) throws -> Bool {
        try decodeIfPresent(Bool.self, forKey: key) ?? false
    }

    func count(_ key: Key) throws -> Int {
        try decodeIfPresent(Int.self, forKey: key) ?? 0
    }
}

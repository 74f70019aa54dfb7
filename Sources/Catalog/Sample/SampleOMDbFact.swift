import JSONKit
import Ledger

/// One title as OMDb answers `?i=IMDBID`, kept as written in the sample catalog's `omdb` member
/// (every value a string, `"N/A"` where OMDb has nothing, `Ratings` a list of `{Source, Value}`),
/// or generated for a synthetic movie. `encoded()` gives the bytes OMDb would send: compact JSON,
/// members in OMDb's order, so the fake answers look like the real ones down to the byte layout.
struct SampleOMDbFact: Sendable {
    let members: [String: JSONValue]

    /// The order OMDb writes its members in (a movie has DVD…Website, a series `totalSeasons`).
    static let order = [
        "Title", "Year", "Rated", "Released", "Runtime", "Genre", "Director", "Writer", "Actors", "Plot", "Language",
        "Country", "Awards", "Poster", "Ratings", "Metascore", "imdbRating", "imdbVotes", "imdbID", "Type", "totalSeasons",
        "DVD", "BoxOffice", "Production", "Website", "Response",
    ]

    /// Reads the `omdb` object at `path`: every member a string but `Ratings`, a list of objects of
    /// strings; `imdbID` present. (Tools/check_sample_catalog.py checks the rest: keys, formats,
    /// agreement with the title.)
    init(_ value: JSONValue, path: String) throws(SampleFactReader.Failure) {
        guard case .object(let members) = value else { throw .init(path: path, reason: "expected an object") }
        for (key, member) in members {
            switch (key, member) {
            case (_, .string): continue
            case ("Ratings", .array(let ratings)):
                for rating in ratings {
                    guard case .object(let pair) = rating, pair.values.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                        throw .init(path: "\(path).Ratings", reason: "expected objects of strings")
                    }
                }
            default: throw .init(path: "\(path).\(key)", reason: "expected a string, as every OMDb value is")
            }
        }
        guard case .string? = members["imdbID"] else { throw .init(path: "\(path).imdbID", reason: "missing") }
        self.members = members
    }

    init(members: [String: JSONValue]) { self.members = members }

    private func text(_ key: String) -> String? { members[key]?.stringValue }

    var imdbID: String { text("imdbID") ?? "" }
    var title: String? { text("Title") }
    var type: String? { text("Type") }

    /// The years the title covers: a movie's one, a series' `2008–2013` or open `2019–` (to this year).
    var years: ClosedRange<Int>? {
        guard let year = text("Year") else { return nil }
        let parts = year.split(separator: "–", omittingEmptySubsequences: false)
        guard let first = parts.first.flatMap({ Int($0) }) else { return nil }
        guard parts.count == 2 else { return first...first }
        let last = Int(parts[1]) ?? 9999
        return first...max(first, last)
    }

    /// IMDb's vote count, for choosing among titles of the same name as OMDb does (the best known).
    var votes: Int { Int((text("imdbVotes") ?? "").filter(\.isNumber)) ?? 0 }

    /// The answer's bytes: compact JSON with OMDb's members in OMDb's order (any other member after
    /// them, by name), each `Ratings` entry as `{"Source":…,"Value":…}`.
    func encoded() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(1200)
        let known = Set(Self.order)
        let keys = Self.order.filter { members[$0] != nil } + members.keys.filter { !known.contains($0) }.sorted()
        for (index, key) in keys.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += JSONValue.string(key).encoded()
            out.append(UInt8(ascii: ":"))
            guard key == "Ratings", case .array(let ratings)? = members[key] else {
                out += members[key]?.encoded() ?? Array("null".utf8)
                continue
            }
            out.append(UInt8(ascii: "["))
            for (n, rating) in ratings.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                let pair = rating.objectValue ?? [:]
                out += Array(#"{"Source":"#.utf8) + (pair["Source"] ?? .null).encoded()
                out += Array(#","Value":"#.utf8) + (pair["Value"] ?? .null).encoded() + [UInt8(ascii: "}")]
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}

extension SampleOMDbFact {
    /// What OMDb would say of synthetic movie `m` (id `SampleCatalog.syntheticBase + n`, IMDb id
    /// `tt` + its id): facts generated from `n`, the same every time, that vary as real ones do. An
    /// IMDb rating always; every ninth title without a Metascore, every sixth without Rotten
    /// Tomatoes, every fifth without a box office, every fourth without awards.
    static func synthetic(_ m: SampleFacts.Movie, n: Int) -> SampleOMDbFact {
        let first = ["Ada", "Bruno", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemi", "Luca"]
        let last = ["Novak", "Keller", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Reyes", "Brandt", "Costa", "Haddad", "Quinn"]
        func person(_ k: Int) -> String { "\(first[k % first.count]) \(last[(k / first.count + k) % last.count])" }
        func grouped(_ value: Int) -> String {
            let digits = Array(String(value))
            var out = ""
            for (i, d) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
                out.append(d)
            }
            return out
        }
        let year = String(m.release_date.prefix(4))
        let rating = 10 + (n &* 37) % 90  // tenths: 1.0 … 9.9
        let ratingText = "\(rating / 10).\(rating % 10)"
        let metascore = n % 9 == 0 ? nil : 19 + (n &* 53) % 81
        let tomatometer = n % 6 == 0 ? nil : (n &* 29) % 101
        let wins = 1 + n % 40, nominations = wins + 2 + n % 57
        let oscars = 1 + n % 3
        let awards: String
        switch n % 4 {
        case 0: awards = "N/A"
        case 1: awards = "\(wins) win\(wins == 1 ? "" : "s") & \(nominations) nominations"
        case 2: awards = "Won \(oscars) Oscar\(oscars == 1 ? "" : "s"). \(wins + oscars) wins & \(nominations) nominations total"
        default: awards = "Nominated for \(oscars) Oscar\(oscars == 1 ? "" : "s"). \(wins) wins & \(nominations + oscars) nominations total"
        }
        var ratings: [JSONValue] = [["Source": "Internet Movie Database", "Value": .string(ratingText + "/10")]]
        if let tomatometer { ratings.append(["Source": "Rotten Tomatoes", "Value": .string("\(tomatometer)%")]) }
        if let metascore { ratings.append(["Source": "Metacritic", "Value": .string("\(metascore)/100")]) }
        let genres = m.genre_ids.compactMap { id in SampleGenres.movie.first { $0.id == id }?.en }
        let members: [String: JSONValue] = [
            "Title": .string(m.title), "Year": .string(year), "Rated": .string(["PG-13", "R", "PG", "G", "Not Rated"][n % 5]),
            "Released": .string("01 Jan \(year)"), "Runtime": .string(m.runtime.map { "\($0) min" } ?? "N/A"),
            "Genre": .string(genres.isEmpty ? "N/A" : genres.joined(separator: ", ")),
            "Director": .string(person(n)), "Writer": .string("\(person(n &+ 5)), \(person(n &+ 11))"),
            "Actors": .string([person(n &+ 1), person(n &+ 2), person(n &+ 3)].joined(separator: ", ")),
            "Plot": .string(m.overview), "Language": "English", "Country": "United States", "Awards": .string(awards),
            "Poster": "N/A", "Ratings": .array(ratings), "Metascore": .string(metascore.map(String.init) ?? "N/A"),
            "imdbRating": .string(ratingText), "imdbVotes": .string(grouped(100 + (n &* 7919) % 2_000_000)),
            "imdbID": .string(m.imdb_id ?? "tt\(m.id)"), "Type": "movie", "DVD": "N/A",
            "BoxOffice": .string(n % 5 == 0 ? "N/A" : "$" + grouped(50_000 + (n &* 104_729) % 300_000_000)),
            "Production": "N/A", "Website": "N/A", "Response": "True",
        ]
        return SampleOMDbFact(members: members)
    }
}

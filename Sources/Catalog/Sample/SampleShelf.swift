import JSONKit
import Ledger
import Synchronization

/// One kind of the sample catalog's facts (its movies, series or people), read from its JSON when
/// needed and indexed by id. Reading is most of what a short command spends on the sample catalog,
/// so a command reads only what it asks about: `reel fav add movie 550` reads movie 550's object
/// (the index says where it is), never the other movies, the series or the people; a list reads
/// the whole shelf once.
final class SampleShelf<Fact: Sendable>: Sendable {
    struct Contents: Sendable {
        let all: [Fact]
        let byID: [Int: Fact]

        init(_ all: [Fact], id: (Fact) -> Int) {
            self.all = all
            byID = Dictionary(all.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private let json: String
    private let name: String
    private let index: [Int: (start: Int, end: Int)]
    private let make: @Sendable (SampleFactReader) throws(SampleFactReader.Failure) -> Fact
    private let id: @Sendable (Fact) -> Int
    private let contents = Mutex<Contents?>(nil)
    /// Facts read one at a time, before (or without) the whole shelf.
    private let single = Mutex<[Int: Fact]>([:])

    /// The facts in `json` (an array of objects, each read by `fact`), where `index` says each
    /// one's object is (UTF-8 offsets). Text that does not read is a broken build, not a runtime
    /// condition: it stops the program, naming where.
    init(
        json: String, index: [(id: Int, start: Int, end: Int)], name: String,
        fact: @escaping @Sendable (SampleFactReader) throws(SampleFactReader.Failure) -> Fact, id: @escaping @Sendable (Fact) -> Int
    ) {
        self.json = json
        self.name = name
        self.index = Dictionary(index.map { ($0.id, ($0.start, $0.end)) }, uniquingKeysWith: { first, _ in first })
        self.make = fact
        self.id = id
    }

    /// Every fact, in the order written, and each by id.
    var facts: Contents {
        contents.withLock { stored in
            if let stored { return stored }
            do {
                let made = Contents(try SampleFactReader.list(JSONValue(parsing: json.utf8), path: name, make), id: id)
                stored = made
                return made
            } catch {
                preconditionFailure("the sample catalog's \(name) do not read: \(error)")
            }
        }
    }

    /// The fact with id `id`, nil when the shelf has none: from the whole shelf when it was read,
    /// else its own object alone.
    func fact(_ id: Int) -> Fact? {
        if let all = contents.withLock({ $0 }) { return all.byID[id] }
        guard let (start, end) = index[id] else { return nil }
        return single.withLock { read in
            if let fact = read[id] { return fact }
            let parse = { (bytes: UnsafeBufferPointer<UInt8>) -> Fact in
                do {
                    return try self.make(SampleFactReader(JSONValue(parsing: bytes[start..<end]), path: "\(self.name)[id \(id)]"))
                } catch {
                    preconditionFailure("the sample catalog's \(self.name) do not read: \(error)")
                }
            }
            // A string literal's bytes are contiguous; a copy otherwise.
            let fact = json.utf8.withContiguousStorageIfAvailable(parse) ?? Array(json.utf8).withUnsafeBufferPointer(parse)
            read[id] = fact
            return fact
        }
    }
}

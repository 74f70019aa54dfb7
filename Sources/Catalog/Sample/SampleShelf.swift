import JSONKit
import Ledger
import Synchronization

/// One kind of the sample catalog's facts (its movies, series or people), read from its JSON the
/// first time it is needed and indexed by id. Reading is most of what a short command spends on
/// the sample catalog, so a command reads only the kinds it asks about: `reel fav add movie 550`
/// never reads the series or the people.
final class SampleShelf<Fact: Sendable>: Sendable {
    struct Contents: Sendable {
        let all: [Fact]
        let byID: [Int: Fact]

        init(_ all: [Fact], id: (Fact) -> Int) {
            self.all = all
            byID = Dictionary(all.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private let read: @Sendable () -> Contents
    private let contents = Mutex<Contents?>(nil)

    /// The facts in `json` (an array of objects, each read by `fact`), read on first use. Text that
    /// does not read is a broken build, not a runtime condition: it stops the program, naming where.
    init(
        json: String, name: String, fact: @escaping @Sendable (SampleFactReader) throws(SampleFactReader.Failure) -> Fact,
        id: @escaping @Sendable (Fact) -> Int
    ) {
        read = {
            do {
                return Contents(try SampleFactReader.list(JSONValue(parsing: json.utf8), path: name, fact), id: id)
            } catch {
                preconditionFailure("the sample catalog's \(name) do not read: \(error)")
            }
        }
    }

    /// Whether the facts were read already (then preparing them needs no thread).
    var isRead: Bool { contents.withLock { $0 != nil } }

    /// Every fact, in the order written, and each by id.
    var facts: Contents {
        contents.withLock { stored in
            if let stored { return stored }
            let made = read()
            stored = made
            return made
        }
    }
}

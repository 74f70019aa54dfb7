import ArgumentParser
import Ledger
import Reel

/// `reel saved`: the saved list, now or as of a point in the past.
struct Saved: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the saved list.",
        discussion: """
            Titles, release dates, ratings and genres come from the TMDb catalog, which this version \
            does not include yet: sorting by them and filtering by genre are accepted, and a note \
            says they could not be applied. --search matches what the ledger knows (media type and id).
            """
    )

    enum SortKey: String, ExpressibleByArgument, CaseIterable {
        case added, title, release, rating
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("type"), help: "Only movie or tv.") var mediaType: MediaType?
    @Option(help: ArgumentHelp("Only items matching this text.", valueName: "text")) var search: String?
    @Option(help: "Order by added (default), title, release or rating.") var sort: SortKey = .added
    @Flag(help: "Reverse the order.") var desc = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only items of these genres.", valueName: "name")) var genre: [String] = []
    @Option(name: .customLong("as-of"), help: AsOfArgument.help) var asOf: AsOfArgument?

    func run() async throws {
        try await runReporting {
            let handle = try global.handle()
            let service = try LedgerLocation.existingService(global)
            let view = try service.view(of: handle, asOf: asOf?.value)
            var notices: [String] = []
            var items = view.state.saved.items
            if let mediaType { items = items.filter { $0.key.mediaType == mediaType } }
            if let search {
                let needle = search.lowercased()
                items = items.filter { "\($0.key.mediaType.rawValue) \($0.key.id)".contains(needle) }
                notices.append("titles are not known without the catalog: --search matched media types and ids only")
            }
            if sort != .added {
                notices.append("catalog details are missing: cannot sort by \(sort.rawValue), kept the order added")
            }
            if !genre.isEmpty {
                notices.append("catalog details are missing: cannot filter by genre (\(genre.joined(separator: ", "))), showing every item")
            }
            if desc { items.reverse() }

            if global.json {
                let document: JSONValue = [
                    "user": .string(handle.value), "stream": .string(view.stream.rawValue), "asOf": JSONForm.asOf(view.asOf),
                    "sort": .string(sort.rawValue), "descending": .bool(desc), "count": .integer(Int64(items.count)),
                    "detailsMissing": true, "notices": .array(notices.map { .string($0) }),
                    "items": .array(
                        items.map { item in
                            [
                                "mediaType": .string(item.key.mediaType.rawValue), "id": .integer(item.key.id),
                                "addedAt": JSONForm.time(item.addedAt), "position": .integer(Int64(item.position)),
                                "title": .null, "releaseDate": .null, "rating": .null, "genres": .null,
                            ]
                        }),
                ]
                try printJSON(document)
                return
            }
            for notice in notices { Terminal.notice(notice) }
            if let asOf = view.asOf { print(Terminal.dim("as of \(asOf)")) }
            guard !items.isEmpty else {
                print("nothing saved" + (view.state.saved.count > 0 ? " matches" : ""))
                return
            }
            var table = TextTable(["#", "TYPE", "TMDB ID", "ADDED (UTC)", "TITLE"], alignments: [.right, .left, .right, .left, .left])
            for (i, item) in items.enumerated() {
                table.add([String(i + 1), item.key.mediaType.rawValue, String(item.key.id), Timestamp.short(item.addedAt), "(details missing)"])
            }
            print(table.render())
            let movies = items.filter { $0.key.mediaType == .movie }.count
            print(Terminal.dim("\(items.count) saved (movies: \(movies), series: \(items.count - movies)); titles need the TMDb catalog"))
        }
    }
}

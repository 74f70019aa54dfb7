import ArgumentParser
import Foundation
import Reel

#if canImport(Glibc)
import Glibc
#endif

/// `reel poster movie 550`: a title's poster (or backdrop), or a person's profile photo, drawn at
/// a terminal that can show pictures, else written: to `--out FILE`, or to stdout when it is a
/// file or a pipe (`reel poster movie 550 > fight-club.jpg`).
struct PosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poster",
        abstract: "Draw a title's poster (or backdrop) or a person's photo, or save it to a file.",
        discussion: """
            reel poster movie 550                  draw it here (at a terminal)
            reel poster "fight club" --out p.jpg   save it (TMDb's JPEG, as served)
            reel poster series 1396 --backdrop     the backdrop instead
            reel poster person 71580               a person's profile photo (an id or a name)
            reel poster movie 550 > p.jpg          stdout that is no terminal gets the file's bytes
            Images come from TMDb's image host through the image cache (reel cache stats); \
            --offline draws only what is cached. REEL_IMAGES=kitty|iterm|sixel|symbols|none picks \
            how pictures are drawn.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var title: TitleArguments
    @Option(help: ArgumentHelp("Which of TMDb's sizes (posters w92…w780, backdrops w300…w1280, photos w45, w185, h632; original. Default for a file: w500, w1280, h632; drawn: the smallest that fills the cells).", valueName: "size"))
    var size: String?
    @Option(name: .customLong("out"), help: ArgumentHelp("Write the image to this file ('-': stdout).", valueName: "file"), completion: .file())
    var out: String?
    @Flag(help: "The backdrop instead of the poster.") var backdrop = false
    @Option(help: ArgumentHelp("Draw it this many columns wide (default: up to 40, within the terminal).", valueName: "n"))
    var columns: Int?

    func validate() throws {
        if let size, !(size == "original" || (size.count > 1 && "wh".contains(size.first!) && Int(size.dropFirst()) != nil)) {
            throw ValidationError("--size \(size) is not one of TMDb's sizes (such as w342, w500, original)")
        }
        if let columns, !(4...500).contains(columns) { throw ValidationError("--columns takes 4 to 500") }
        if isPerson, backdrop { throw ValidationError("a person has a profile photo, not a backdrop") }
        if !isPerson, case .ids(let keys) = try title.request(), keys.count > 1 { throw ValidationError("poster takes one title; give one id") }
    }

    private var isPerson: Bool { title.words.first?.lowercased() == "person" }

    /// For a file: the size `reel show` links to (posters w500, backdrops w1280, photos h632).
    private var defaultSize: String { isPerson ? "h632" : backdrop ? "w1280" : "w500" }

    func run() async throws {
        try await global.withApplication { app in
            if let out, out != "-" { try AtomicFile.check(out) }
            if out == "-", isatty(STDOUT_FILENO) == 1 {
                throw Failure(.usage, "--out - writes the image's bytes to stdout, which is a terminal here; redirect it to a file or give --out FILE")
            }
            let handle = try global.handle()
            let drawing = out == nil && !global.json && TerminalPictures.capabilities != nil
            let box = drawing ? Self.box(columns: columns, backdrop: backdrop) : (0, 0)
            let choice: ImageSizeChoice = size.map { .named($0) } ?? (drawing ? TerminalPictures.size(columns: box.0, rows: box.1) : .named(defaultSize))
            let image = try await fetch(app, size: choice, for: handle)
            try deliver(image, drawing: drawing, box: box)
        }
    }

    private func fetch(_ app: Application, size: ImageSizeChoice, for handle: AccountHandle) async throws -> FetchedImage {
        if isPerson {
            let wanted = title.words.dropFirst().joined(separator: " ")
            guard !wanted.isEmpty else { throw Failure(.usage, "give a person's TMDb id or name after 'person'") }
            let person = try await app.person(wanted, limit: 1, for: handle)
            return try await app.image(of: .profile(personID: Int64(person.details.id)), size: size, for: handle)
        }
        guard let key = try await title.keys(app, for: handle, command: "poster").first else { throw ExitCode(0) }
        return try await app.image(of: backdrop ? .backdrop(key) : .poster(key), size: size, for: handle)
    }

    private func deliver(_ image: FetchedImage, drawing: Bool, box: (Int, Int)) throws {
        if global.json {
            if let out, out != "-" { try AtomicFile.write(image.bytes, to: out) }
            try printJSON(Self.json(image, file: out))
        } else if let out, out != "-" {
            try AtomicFile.write(image.bytes, to: out)
            Console.changed("wrote \(out)")
            Console.line("wrote \(image.width)×\(image.height) \(image.format.rawValue) (\(image.size), \(Counted.of(image.bytes.count, "byte"))) to \(out)")
        } else if drawing {
            TerminalPictures.draw(try TerminalPictures.render(image.bytes, columns: box.0, rows: box.1))
        } else if isatty(STDOUT_FILENO) == 1 && out == nil {
            throw Failure(.usage, "pictures are not drawn at this terminal (REEL_IMAGES=none or TERM=dumb); give --out FILE to save the image (\(image.url))")
        } else {
            Console.write(image.bytes)
        }
    }

    /// The cells to draw in: `columns` (else up to 40 for a poster, 80 for a backdrop) within
    /// the terminal's width, and rows enough for the image's shape, within its height (the
    /// columns then shrink to keep the shape).
    static func box(columns: Int?, backdrop: Bool) -> (Int, Int) {
        let wanted = columns ?? (backdrop ? 80 : 40)
        let cell = TerminalPictures.cell
        let aspect = ImageSizeChoice.aspect(of: backdrop ? .backdrop : .poster)
        // Within the terminal both ways: a picture taller than the screen would scroll its top away.
        let tallest = max(1, Terminal.height - 2)
        var width = max(4, min(wanted, Terminal.width - 1))
        var rows = Int((Double(width * cell.width) / aspect / Double(cell.height)).rounded(.up))
        if rows > tallest {
            rows = tallest
            width = max(1, min(width, Int(Double(rows * cell.height) * aspect / Double(cell.width))))
        }
        return (width, max(1, rows))
    }

    static func json(_ image: FetchedImage, file: String?) -> JSONValue {
        [
            "url": .string(image.url), "size": .string(image.size), "format": .string(image.format.rawValue.lowercased()),
            "mediaType": .string(image.format.mediaType), "width": .integer(Int64(image.width)), "height": .integer(Int64(image.height)),
            "bytes": .integer(Int64(image.bytes.count)), "cached": .bool(image.fromCache),
            "file": .init(file.flatMap { $0 == "-" ? nil : JSONValue.string($0) }),
        ]
    }
}

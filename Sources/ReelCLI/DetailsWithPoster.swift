import Foundation
import Reel
import TerminalGraphics

/// `reel show` at a terminal that shows pictures: the poster beside the details on a wide
/// terminal (100 columns or more), above them on a narrow one. The poster is an extra: when it
/// cannot be had (offline and not cached, TMDb's image host down, none at TMDb) the details are
/// shown alone, with a note saying why.
struct DetailsWithPoster {
    let details: TitleDetailsReport
    static let besideFrom = 100
    static let posterColumns = 30

    func draw(_ app: Application) async {
        let width = Terminal.width
        let beside = width >= Self.besideFrom
        let columns = beside ? Self.posterColumns : min(Self.posterColumns, width - 1)
        let box = PosterCommand.box(columns: columns, backdrop: false)
        guard let picture = await poster(app, box: box) else {
            Console.line(details.render(width: width))
            return
        }
        if beside {
            let text = details.render(width: width - picture.columns - 2).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            TerminalPictures.draw(picture, beside: text)
        } else {
            TerminalPictures.draw(picture)
            Console.line(details.render(width: width))
        }
    }

    private func poster(_ app: Application, box: (Int, Int)) async -> RenderedPicture? {
        guard let path = details.posterPath else { return nil }
        do {
            let image = try await app.image(path: path, kind: .poster, size: TerminalPictures.size(columns: box.0, rows: box.1))
            return TerminalPictures.render(image.bytes, columns: box.0, rows: box.1, what: "poster")
        } catch {
            Terminal.notice("the poster is not shown: \((error as? any KindedError)?.summary ?? String(describing: error))")
            return nil
        }
    }
}

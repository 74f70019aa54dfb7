import Foundation
import Synchronization
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

    /// The poster, if it comes within `deadline`: the details never wait long for their extra
    /// (a slow image host is waited for 3 s, then the details are shown without it, with a note).
    private func poster(_ app: Application, box: (Int, Int)) async -> RenderedPicture? {
        guard let path = details.posterPath else { return nil }
        let size = TerminalPictures.size(columns: box.0, rows: box.1)
        // A race the details do not wait out: whichever ends first answers; a fetch still running
        // then ends with the process (closing the application shuts its connections).
        let race = FirstAnswer<Result<FetchedImage, any Error>?>()
        let fetched = await race.wait {
            Task {
                do { race.answer(.success(try await app.image(path: path, kind: .poster, size: size))) } catch { race.answer(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: Self.deadline)
                race.answer(nil)
            }
        }
        switch fetched {
        case .success(let image):
            return TerminalPictures.renderOrNote(image.bytes, columns: box.0, rows: box.1, what: "poster")
        case .failure(let error):
            Terminal.notice("the poster is not shown: \((error as? any KindedError)?.summary ?? String(describing: error))")
        case nil:
            Terminal.notice("the poster is not shown: the image host did not answer within \(Self.deadline.components.seconds) s")
        }
        return nil
    }

    static let deadline: Duration = .seconds(3)
}

/// The first of several answers, awaited once: later answers are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<T, Never>?>(nil)

    /// Starts `racers` and waits for the first `answer`.
    func wait(_ racers: () -> Void) async -> T {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            racers()
        }
    }

    func answer(_ value: T) {
        waiting.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
}

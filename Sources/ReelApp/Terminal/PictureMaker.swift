import Reel
import Synchronization
import TerminalGraphics

/// Turns an image's bytes into a `DrawnPicture` for a box of cells, the way the terminal shows
/// pictures (`TerminalProbe`'s answer): decoded at the size the box needs, rendered through
/// libchafa. Runs on the effect runner's tasks, never on the app's loop. Each kitty image gets an
/// id of its own, so the driver can delete it when its rows go.
final class PictureMaker: Sendable {
    let capabilities: TerminalCapabilities
    private let lastID: Atomic<UInt32>

    init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
        // Ids from a random start: another program's images in the same kitty window keep theirs.
        lastID = Atomic(UInt32.random(in: 0x0100_0000...0x7000_0000))
    }

    /// The pixels of a cell: what the terminal said, else a common 10×20.
    var cell: CellSize { capabilities.cellSize ?? .assumed }

    /// The image size to fetch for `key`'s box: the smallest of TMDb's that fills it.
    func size(for key: PictureKey) -> ImageSizeChoice {
        .filling(width: key.columns * cell.width, height: key.rows * cell.height)
    }

    /// `bytes` (a JPEG or PNG) drawn as large as fits `key`'s box.
    func draw(_ bytes: [UInt8], for key: PictureKey) throws -> DrawnPicture {
        let picture = try PictureDecoder().decode(bytes, atLeast: (key.columns * cell.width, key.rows * cell.height))
        let id = capabilities.mode == .kitty ? lastID.add(1, ordering: .relaxed).newValue : nil
        let rendered = try PictureRenderer(capabilities: capabilities).render(picture, columns: key.columns, rows: key.rows, imageID: id)
        let kind: DrawnPicture.Kind
        switch rendered.mode {
        case .symbols: kind = .symbols
        case .kitty: kind = .kitty(imageID: id ?? 0)
        case .iterm, .sixel: kind = .pixels
        case .none: throw Failure(.unavailable, "this terminal draws no pictures")
        }
        return DrawnPicture(kind: kind, bytes: rendered.bytes, lines: rendered.lines, columns: rendered.columns, rows: rendered.rows)
    }
}

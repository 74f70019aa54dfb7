/// Folded text wrapped into centred lines at one scale: the largest scale (up to a limit) at
/// which the whole text fits a box with every word whole; failing that, the largest at which it
/// fits with long words broken; failing that, at scale 1 as many lines as fit.
struct TextBlock {
    let lines: [[Unicode.Scalar]]
    let scale: Int

    var height: Int { lines.isEmpty ? 0 : (lines.count * ArtCanvas.lineAdvance - 2) * scale }

    static func fit(_ text: [Unicode.Scalar], width: Int, height: Int, maxScale: Int) -> TextBlock? {
        guard !text.isEmpty, width > 0, height > 0 else { return nil }
        let longestWord = text.split(separator: " ").map(\.count).max() ?? 0
        for wholeWords in [true, false] {
            for scale in stride(from: max(1, maxScale), through: 1, by: -1) {
                let columns = (width / scale + 1) / ArtCanvas.advance
                guard columns >= 1, !wholeWords || columns >= longestWord else { continue }
                let block = TextBlock(lines: wrap(text, columns: columns), scale: scale)
                if block.height <= height { return block }
            }
        }
        let lines = wrap(text, columns: (width + 1) / ArtCanvas.advance)
        let fitting = (height + 2) / ArtCanvas.lineAdvance
        return fitting > 0 && !lines.isEmpty ? TextBlock(lines: Array(lines.prefix(fitting)), scale: 1) : nil
    }

    /// Greedy word wrap to `columns` characters; a word longer than a line is broken.
    static func wrap(_ text: [Unicode.Scalar], columns: Int) -> [[Unicode.Scalar]] {
        let columns = max(1, columns)
        var lines: [[Unicode.Scalar]] = []
        var line: [Unicode.Scalar] = []
        for word in text.split(separator: " ") {
            var word = Array(word)
            if !line.isEmpty && line.count + 1 + word.count <= columns {
                line.append(" ")
                line.append(contentsOf: word)
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > columns {
                lines.append(Array(word.prefix(columns)))
                word.removeFirst(columns)
            }
            line = word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Draws each line centred in the canvas width, white on a black shadow.
    func draw(on canvas: inout ArtCanvas, top: Int) {
        let offset = max(1, scale / 3)
        for (index, line) in lines.enumerated() {
            let y = top + index * ArtCanvas.lineAdvance * scale
            let x = (canvas.width - ArtCanvas.textWidth(line.count, scale: scale)) / 2
            canvas.text(line, x: x + offset, y: y + offset, scale: scale, PosterArt.Palette.shadow)
            canvas.text(line, x: x, y: y, scale: scale, PosterArt.Palette.text)
        }
    }
}

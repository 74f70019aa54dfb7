import Foundation
import Presentation
import Reel
import ReelApp
import Testing

/// A screen kept as text beside the tests (`Snapshots/<name>.<width>x<height>.txt`): its lines
/// between rules, then the styled runs of each row (`3: 0-78 bold,reverse`, `2: 2 saved`), the
/// links and the pictures' boxes, so a change to a layout, a colour or a picture's place shows
/// up in review as a diff. A screen that differs from its file fails the test and writes what it
/// drew beside it (`.actual.txt`); `REEL_RECORD_SNAPSHOTS=1` writes the files instead (a missing
/// file fails either way, so a new screen is recorded on purpose and looked at).
enum ScreenSnapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// The screen `model` draws, as the snapshot's text.
    static func text(_ model: AppModel) -> String {
        let screen = AppView.draw(model)
        var out = "┌" + String(repeating: "─", count: screen.width) + "┐\n"
        for line in screen.lines() {
            out += "│" + line + String(repeating: " ", count: max(0, screen.width - DisplayWidth.columns(line))) + "│\n"
        }
        out += "└" + String(repeating: "─", count: screen.width) + "┘\n"
        out += "styles:\n"
        for (y, row) in screen.rows.enumerated() {
            var runs: [String] = []
            var x = 0
            while x < row.count {
                let style = row[x].style
                var end = x
                while end + 1 < row.count, row[end + 1].style == style { end += 1 }
                if style != .plain { runs.append((x == end ? "\(x)" : "\(x)-\(end)") + " " + describe(style)) }
                x = end + 1
            }
            if !runs.isEmpty { out += "\(y): " + runs.joined(separator: "; ") + "\n" }
        }
        for link in screen.links { out += "link: row \(link.row) columns \(link.column)-\(link.column + link.width - 1) \(link.url)\n" }
        for box in screen.pictures {
            out += "picture: \(box.key.source) in \(box.key.columns)×\(box.key.rows) at row \(box.row) column \(box.column)\n"
        }
        return out
    }

    /// Compares the screen `model` draws with `Snapshots/<name>.<w>x<h>.txt`.
    static func check(_ model: AppModel, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent("\(name).\(model.width)x\(model.height).txt")
        let drawn = text(model)
        let actual = file.deletingPathExtension().appendingPathExtension("actual.txt")
        if ProcessInfo.processInfo.environment["REEL_RECORD_SNAPSHOTS"] == "1" {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? drawn.write(to: file, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: actual)
            return
        }
        guard let kept = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(file.lastPathComponent): record it with REEL_RECORD_SNAPSHOTS=1 and look at it", sourceLocation: sourceLocation)
            return
        }
        if kept == drawn {
            try? FileManager.default.removeItem(at: actual)
        } else {
            try? drawn.write(to: actual, atomically: true, encoding: .utf8)
            Issue.record("\(file.lastPathComponent) differs: what was drawn is in \(actual.lastPathComponent)\n\(drawn)", sourceLocation: sourceLocation)
        }
    }

    private static func describe(_ style: CellStyle) -> String {
        var parts: [String] = []
        if style.attributes.contains(.bold) { parts.append("bold") }
        if style.attributes.contains(.dim) { parts.append("dim") }
        if style.attributes.contains(.reverse) { parts.append("reverse") }
        if style.attributes.contains(.underline) { parts.append("underline") }
        if style.color != .none { parts.append("\(style.color)") }
        return parts.joined(separator: ",")
    }
}

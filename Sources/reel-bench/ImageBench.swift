import ArgumentParser
import Foundation
import Pictures
import TerminalGraphics

/// The rendering part of issue 21's benchmark: a w342 poster (342×513 JPEG, from memory as from
/// a warm cache) to terminal bytes for 30×45 cells, p50 and p99, for symbols, sixel and kitty;
/// the `chafa` command on the same file and size in the same run as the baseline (a whole
/// process each time: its start-up is in its figure, as it would be for anyone calling it).
struct ImageBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "Benchmark drawing a poster in the terminal (symbols, sixel, kitty), side by side with the chafa command.")

    @Option(help: "A JPEG or PNG to draw (default: a generated 342×513 poster, saved as JPEG for chafa).") var image: String?
    @Option(help: "Columns of the box.") var columns = 30
    @Option(help: "Rows of the box.") var rows = 45
    @Option(help: "Renders timed per mode.") var runs = 200
    @Option(name: .customLong("chafa-runs"), help: "Runs of the chafa command per mode.") var chafaRuns = 20
    @Flag(help: "Few runs: a smoke test of the harness, not a measurement.") var quick = false

    func validate() throws {
        guard (1...500).contains(columns), (1...500).contains(rows) else { throw ValidationError("the box must be 1–500 cells each way") }
        guard runs > 0, chafaRuns >= 0 else { throw ValidationError("runs must be positive") }
    }

    /// One mode's figures.
    struct Figures {
        var decodeAndRender: [Double] = []
        var renderOnly: [Double] = []
        var bytes = 0
        var chafa: [Double] = []
        var chafaBytes = 0
    }

    func run() throws {
        let runs = quick ? 5 : self.runs
        let chafaRuns = quick ? min(2, self.chafaRuns) : self.chafaRuns
        let directory = NSTemporaryDirectory() + "reel-bench-images-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try image ?? Self.generatedPoster(in: directory)
        let encoded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let decoder = PictureDecoder()
        let picture = try decoder.decode(encoded)
        let cell = CellSize(width: 10, height: 20)!
        note("\(file): \(picture.width)×\(picture.height), \(encoded.count) bytes; \(columns)×\(rows) cells of \(cell)")
        var table = Table(columns: ["benchmark", "Reel p50", "Reel p99", "chafa p50", "bytes: Reel / chafa", "target", "met"])
        for (mode, chafaFormat, target) in [(GraphicsMode.symbols, "symbols", 15.0), (.sixel, "sixels", 30.0), (.kitty, "kitty", 10.0)] {
            note("\(mode.label): \(runs) renders, \(chafaRuns) chafa runs")
            let renderer = PictureRenderer(
                capabilities: TerminalCapabilities(mode: mode, colours: .truecolor, cellSize: cell, reason: "benchmark"))
            var figures = Figures()
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                let decoded = try decoder.decode(encoded)
                let middle = DispatchTime.now().uptimeNanoseconds
                let rendered = try renderer.render(decoded, columns: columns, rows: rows)
                let end = DispatchTime.now().uptimeNanoseconds
                figures.decodeAndRender.append(Double(end - start) / 1e6)
                figures.renderOnly.append(Double(end - middle) / 1e6)
                figures.bytes = rendered.bytes.count
            }
            let arguments = ["--format", chafaFormat, "--size", "\(columns)x\(rows)", "--font-ratio", "1/2", "--animate", "off", file]
            for _ in 0..<chafaRuns {
                let start = DispatchTime.now().uptimeNanoseconds
                let status = Spawn.status(["/usr/bin/chafa"] + arguments, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
                guard status == 0 else { throw BenchmarkError("chafa exited \(status) (is Debian's chafa installed?)") }
                figures.chafa.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            if chafaRuns > 0 {
                let out = Spawn.output(["/usr/bin/chafa"] + arguments, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
                figures.chafaBytes = out.stdout.utf8.count
            }
            let p50 = UIBench.percentile(figures.decodeAndRender, 0.5)
            table.row([
                "\(mode.label): JPEG to terminal bytes (ms)", UIBench.fixed(p50, 2), UIBench.fixed(UIBench.percentile(figures.decodeAndRender, 0.99), 2),
                UIBench.fixed(UIBench.percentile(figures.chafa, 0.5), 1), "\(UIBench.count(figures.bytes)) / \(UIBench.count(figures.chafaBytes))",
                "p50 ≤ \(Int(target)) ms", p50 <= target ? "yes" : "NO",
            ])
            table.row([
                "   render only, decoded picture in hand (ms)", UIBench.fixed(UIBench.percentile(figures.renderOnly, 0.5), 2),
                UIBench.fixed(UIBench.percentile(figures.renderOnly, 0.99), 2), "–", "", "(reported)", "",
            ])
        }
        try pngRow(picture, runs: runs, into: &table)
        table.print()
        print("chafa 1.12 cannot be told the cell size: with no terminal it draws sixel and kitty images at 8×8 px a cell,")
        print("fewer pixels than Reel's 10×20, so its bytes there are not comparable; its symbols are.")
    }

    /// kitty also takes PNG (`f=100`): what encoding the picture as PNG would cost instead of
    /// sending its pixels zlib-compressed (`o=z`, `KittyTransmission`; reported, to keep the
    /// choice honest: PNG's filters shrink a photograph further, at several times the time).
    private func pngRow(_ picture: Picture, runs: Int, into table: inout Table) throws {
        var times: [Double] = []
        var size = 0
        for _ in 0..<max(1, runs / 4) {
            let start = DispatchTime.now().uptimeNanoseconds
            size = try PictureEncoder.png(picture).count
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        table.row([
            "   (not used) the picture as PNG for kitty's f=100 (ms)", UIBench.fixed(UIBench.percentile(times, 0.5), 2),
            UIBench.fixed(UIBench.percentile(times, 0.99), 2), "–", "\(UIBench.count(size * 4 / 3)) base64 / –", "(reported)", "",
        ])
    }

    /// A poster-like 342×513 picture (gradients, shapes and grain, so it compresses like a
    /// photograph rather than a flat fill), written as a quality-85 JPEG.
    static func generatedPoster(in directory: String) throws -> String {
        let width = 342, height = 513
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let grain = Int(state >> 59) - 16
                let dx = Double(x - width / 2), dy = Double(y - height / 3)
                let disc = dx * dx + dy * dy < 90 * 90
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(clamping: (disc ? 230 : 40 + x * 120 / width) + grain)
                pixels[offset + 1] = UInt8(clamping: (disc ? 180 : 30 + y * 100 / height) + grain)
                pixels[offset + 2] = UInt8(clamping: (disc ? 60 : 160 - y * 120 / height) + grain)
            }
        }
        let path = directory + "/poster.jpg"
        try Data(PictureEncoder.jpeg(Picture(width: width, height: height, rgba: pixels), quality: 85)).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}

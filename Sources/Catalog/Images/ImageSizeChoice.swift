/// Which of TMDb's sizes of an image to fetch: one named (`w342`, `original`), or the smallest
/// that fills a box of pixels (a box of cells times the terminal's cell size).
public enum ImageSizeChoice: Sendable, Equatable {
    case named(String)
    case filling(width: Int, height: Int)

    /// The width ÷ height TMDb's images of `kind` have (posters and profiles 2:3, backdrops and
    /// stills 16:9), to tell how wide an image fitted in a box is.
    public static func aspect(of kind: ImageConfiguration.Kind) -> Double {
        switch kind {
        case .poster, .profile: 2.0 / 3.0
        case .backdrop, .still: 16.0 / 9.0
        case .logo: 2.0
        }
    }

    /// The size name to fetch from `sizes` (as `/configuration` lists them: `w92`…, `h632`,
    /// `original`). A name not listed is nil (the caller says which are).
    public func pick(from sizes: [String], kind: ImageConfiguration.Kind) -> String? {
        switch self {
        case .named(let name):
            return sizes.contains(name) || name == "original" ? name : nil
        case .filling(let boxWidth, let boxHeight):
            let aspect = Self.aspect(of: kind)
            // The image fitted in the box: as wide as the box, or as high, whichever binds first.
            let width = min(Double(boxWidth), Double(boxHeight) * aspect)
            let height = width / aspect
            var best: (name: String, pixels: Double)?
            for name in sizes {
                guard let number = Double(name.dropFirst()), number > 0 else { continue }
                let covers = name.hasPrefix("w") ? number >= width.rounded(.down) : name.hasPrefix("h") ? number >= height.rounded(.down) : false
                guard covers else { continue }
                let pixels = name.hasPrefix("w") ? number : number * aspect
                if best == nil || pixels < best!.pixels { best = (name, pixels) }
            }
            return best?.name ?? "original"
        }
    }
}

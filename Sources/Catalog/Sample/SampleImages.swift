import JSONKit
public import Ledger
public import Pictures
import Synchronization

/// The images of the sample catalog, as TMDb's image host would serve them: for an image path the
/// catalog gives (`poster_path`, `backdrop_path`, `profile_path`) and a size its `/configuration`
/// lists, a JPEG of `PosterArt` at that size. What `fake-tmdb` serves below `/t/p/`.
///
/// ```swift
/// let jpeg = try SampleImages.bundled.jpeg(path: "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", size: "w342")  // 342 × 513
/// ```
///
/// Each image is made once per process and kept in a small cache (the most recently used
/// `cacheLimit` bytes), since a server is asked for the same posters again and again.
public final class SampleImages: Sendable {
    /// The images of the bundled catalog.
    public static let bundled = SampleImages(catalog: .bundled)

    /// JPEG quality of the art: flat colours and pixel letters stay clean at 85.
    public static let quality = 85

    /// What the cache may hold, in bytes of JPEG (a w342 poster is about 20 kB, a 1920 × 1080
    /// original backdrop about 150 kB).
    public let cacheLimit: Int

    /// What a path shows: a title's poster or backdrop, or a person's photo.
    struct Subject: Sendable, Equatable {
        let kind: PosterArt.Kind
        let title: String
        let subtitle: String?
    }

    private struct Key: Hashable {
        let path: String
        let size: String
    }

    private struct Cache {
        var entries: [Key: (bytes: [UInt8], used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let catalog: SampleCatalog
    /// Every image path of the catalog and what it shows, gathered on first use.
    private let subjects = Mutex<[String: Subject]?>(nil)
    private let cache = Mutex(Cache())

    public init(catalog: SampleCatalog, cacheLimit: Int = 32 << 20) {
        self.catalog = catalog
        self.cacheLimit = cacheLimit
    }

    /// The path a sample person's profile art has (the sample people have no TMDb photos).
    public static func profilePath(personID: Int) -> String { "/reel-sample-person-\(personID).jpg" }

    /// The path of a sample title's generated poster or backdrop, for a title whose facts name
    /// none (TMDb's images are not ours to ship): `/reel-sample-movie-603-poster.jpg`.
    public static func artPath(_ mediaType: MediaType, id: Int, kind: PosterArt.Kind) -> String {
        "/reel-sample-\(mediaType == .movie ? "movie" : "series")-\(id)-\(kind == .backdrop ? "backdrop" : "poster").jpg"
    }

    /// The title and picture `path` names when it is a generated title's art (`artPath`).
    private func generatedSubject(_ path: String) -> Subject? {
        let prefix = "/reel-sample-", suffix = ".jpg"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix) else { return nil }
        let parts = path.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-")
        guard parts.count == 3, let id = Int(parts[1]), parts[2] == "poster" || parts[2] == "backdrop" else { return nil }
        let kind: PosterArt.Kind = parts[2] == "poster" ? .poster : .backdrop
        switch parts[0] {
        case "movie":
            guard let m = catalog.movie(id), path == (kind == .poster ? catalog.posterPath(m) : catalog.backdropPath(m)) else { return nil }
            return Subject(kind: kind, title: m.title, subtitle: Self.year(m.release_date))
        case "series":
            guard let s = catalog.series(id), path == (kind == .poster ? catalog.posterPath(s) : catalog.backdropPath(s)) else { return nil }
            return Subject(kind: kind, title: s.name, subtitle: Self.year(s.first_air_date))
        default: return nil
        }
    }

    /// The JPEG for `path` (exactly as the catalog gives it, with its leading `/`) at `size`
    /// (`w342`, `h632`, `original`, ...), or nil when the catalog has no such image or
    /// `/configuration` no such size (the server's 404).
    public func jpeg(path: String, size: String) throws(PictureError) -> [UInt8]? {
        let key = Key(path: path, size: size)
        if let hit = cached(key) { return hit }
        guard let subject = subject(of: path), let pixels = Self.sizeInPixels(size, kind: subject.kind) else { return nil }
        let picture = PosterArt.picture(title: subject.title, subtitle: subject.subtitle, kind: subject.kind, width: pixels.width, height: pixels.height)
        let bytes = try PictureEncoder.jpeg(picture, quality: Self.quality)
        store(bytes, key)
        return bytes
    }

    /// The width and height of an image of `kind` at `size`: `wN` is N wide and `hN` N high, at
    /// 2:3 for posters and photos and 16:9 for backdrops; `original` is 1000 × 1500 for a poster,
    /// 1920 × 1080 for a backdrop and 600 × 900 for a photo. Nil for a size the sample
    /// `/configuration` does not list (in any of its lists: TMDb's image host takes any of them).
    public static func sizeInPixels(_ size: String, kind: PosterArt.Kind) -> (width: Int, height: Int)? {
        guard knownSizes.contains(size) else { return nil }
        let (across, down) = kind == .backdrop ? (16, 9) : (2, 3)
        if size == "original" {
            switch kind {
            case .poster: return (1000, 1500)
            case .backdrop: return (1920, 1080)
            case .profile: return (600, 900)
            }
        }
        guard let n = Int(size.dropFirst()), n > 0 else { return nil }
        // Rounded to the nearest pixel, as TMDb's w342 poster is 342 × 513.
        return size.hasPrefix("w") ? (n, (n * down * 2 + across) / (across * 2)) : ((n * across * 2 + down) / (down * 2), n)
    }

    /// Every size the sample `/configuration` lists, of any kind of image.
    static let knownSizes: Set<String> = {
        guard let images = SampleCatalog.configuration["images"]?.objectValue else { return [] }
        var sizes = Set<String>()
        for (name, list) in images where name.hasSuffix("_sizes") {
            guard case .array(let items) = list else { continue }
            sizes.formUnion(items.compactMap(\.stringValue))
        }
        return sizes
    }()

    /// What `path` shows, nil for a path the catalog does not give.
    func subject(of path: String) -> Subject? {
        if let generated = generatedSubject(path) { return generated }
        return subjects.withLock { stored in
            if let stored { return stored[path] }
            let all = gatherSubjects()
            stored = all
            return all[path]
        }
    }

    private func gatherSubjects() -> [String: Subject] {
        var all: [String: Subject] = [:]
        for m in catalog.movies {
            if let path = m.poster_path { all[path] = Subject(kind: .poster, title: m.title, subtitle: Self.year(m.release_date)) }
            if let path = m.backdrop_path { all[path] = Subject(kind: .backdrop, title: m.title, subtitle: Self.year(m.release_date)) }
        }
        for s in catalog.series {
            if let path = s.poster_path { all[path] = Subject(kind: .poster, title: s.name, subtitle: Self.year(s.first_air_date)) }
            if let path = s.backdrop_path { all[path] = Subject(kind: .backdrop, title: s.name, subtitle: Self.year(s.first_air_date)) }
        }
        for p in catalog.people {
            all[catalog.profilePath(p)] = Subject(kind: .profile, title: p.name, subtitle: p.name)
        }
        return all
    }

    private func cached(_ key: Key) -> [UInt8]? {
        cache.withLock { cache in
            guard let entry = cache.entries[key] else { return nil }
            cache.clock += 1
            cache.entries[key] = (entry.bytes, cache.clock)
            return entry.bytes
        }
    }

    /// Keeps `bytes`, forgetting the least recently used images beyond `cacheLimit`.
    private func store(_ bytes: [UInt8], _ key: Key) {
        guard bytes.count <= cacheLimit else { return }
        cache.withLock { cache in
            cache.clock += 1
            if let old = cache.entries.updateValue((bytes, cache.clock), forKey: key) { cache.bytes -= old.bytes.count }
            cache.bytes += bytes.count
            while cache.bytes > cacheLimit, let oldest = cache.entries.min(by: { $0.value.used < $1.value.used }) {
                cache.entries.removeValue(forKey: oldest.key)
                cache.bytes -= oldest.value.bytes.count
            }
        }
    }

    /// A title's year, as its art shows it beneath the title.
    private static func year(_ date: String) -> String? { TMDbDate(parsing: date).map { String($0.year) } }

    /// How many images and bytes the cache holds, for tests.
    var cacheContents: (images: Int, bytes: Int) { cache.withLock { ($0.entries.count, $0.bytes) } }
}

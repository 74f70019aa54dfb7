import Catalog
import Failures
import Foundation
import Ledger

extension Application {
    /// The image of `subject` at `size`: the title or person is looked up in the account's
    /// language (TMDb localises posters), then the image comes through the image client (cache,
    /// single flight, polite fetch). One with no image at TMDb is not found.
    public func image(of subject: ImageSubject, size: ImageSizeChoice, for handle: AccountHandle) async throws -> FetchedImage {
        let language = try reader(handle).language
        let client = try catalogs.catalog()
        let path: String?
        switch subject {
        case .poster(let key), .backdrop(let key):
            guard let id = Int(exactly: key.id) else { throw Failure(.usage, "id \(key.id) is out of range") }
            let paths: (poster: String?, backdrop: String?)
            switch key.mediaType {
            // As `reel show` asks (credits and videos appended), so one cached answer serves both.
            case .movie:
                let movie = try await client.movie(id, language: language, appending: [.credits, .videos])
                paths = (movie.posterPath, movie.backdropPath)
            case .tv:
                let series = try await client.series(id, language: language, appending: [.credits, .videos])
                paths = (series.posterPath, series.backdropPath)
            }
            if case .backdrop = subject { path = paths.backdrop } else { path = paths.poster }
        case .profile(let id):
            guard let personID = Int(exactly: id) else { throw Failure(.usage, "person id \(id) is out of range") }
            path = try await client.person(personID, language: language).profilePath
        }
        guard let path else { throw Failure(.notFound, "TMDb has no \(subject.description)") }
        return try await image(path: path, kind: subject.kind, size: size)
    }

    /// The image at TMDb `path` (a report's `posterPath`, …) of `kind` at `size`.
    public func image(path: String, kind: ImageConfiguration.Kind, size: ImageSizeChoice) async throws -> FetchedImage {
        try await catalogs.images().image(path, kind: kind, size: size)
    }

    /// The image if it is at hand (the image cache has it in that size, or the sample makes it in
    /// this process), else nil: nothing is fetched for it.
    public func cachedImage(path: String, kind: ImageConfiguration.Kind, size: ImageSizeChoice) async throws -> FetchedImage? {
        try await catalogs.images().cachedImage(path, kind: kind, size: size)
    }

    /// The sizes TMDb offers for `kind` (from `/configuration`), for help and refusals.
    public func imageSizes(of kind: ImageConfiguration.Kind) async throws -> [String] {
        try await catalogs.images().imageConfiguration().sizes(for: kind)
    }

    /// How many images are cached, how big, how old (an empty report when there is no cache).
    public func imageCacheStatistics() throws -> ImageCacheStatistics {
        let directory = configuration.imageCacheDirectory
        let cap = ImageCache.capBytes(environment: configuration.environment)
        guard FileManager.default.fileExists(atPath: directory + "/data.mdb") else { return ImageCacheStatistics(path: directory, capBytes: cap) }
        do {
            return try ImageCache.open(at: directory, capBytes: cap).statistics(now: Int64(Date().timeIntervalSince1970 * 1_000_000))
        } catch {
            guard let damage = ResponseCache.damage(in: error) else { throw error }
            throw Failure(.tampered, "the image cache is damaged (\(damage)); \(ImageCache.damageAdvice)")
        }
    }

    /// Forgets every cached image (removes the image cache's files); answers how many there were.
    public func clearImageCache() throws -> Int {
        try ImageCache.clear(at: configuration.imageCacheDirectory)
    }
}

public import Foundation
import Failures
public import Pictures
import Synchronization

/// TMDb's images, politely: URLs built from `/configuration` (cached a week by the catalog
/// client), the size picked for the box it is drawn in, then: the image cache → else one flight
/// per image in this process and one across processes (`FetchLock` on `fetch.lock`, then the cache again) →
/// a connection slot (at most `maxConnections` at once) → the transport, retried with backoff on
/// 429/5xx/transient failures → the bytes checked (a JPEG or PNG whose header is whole and within
/// the pixel limit) → the cache. Offline, only the cache answers.
public final class ImageClient: Sendable {
    public static let defaultMaxConnections = 4

    public let catalog: CatalogClient
    public let cache: ImageCache?
    public let offline: Bool
    private let transport: any ImageTransport
    private let slots: RequestSlots
    private let flights = SingleFlight()
    private let lock: FetchLock?
    private let retry: RetryPolicy
    private let decoder: PictureDecoder
    private let clock: @Sendable () -> Int64
    private let fetchCount = Atomic<Int>(0)

    public init(
        catalog: CatalogClient, transport: any ImageTransport, cache: ImageCache?, offline: Bool = false,
        maxConnections: Int = ImageClient.defaultMaxConnections, retry: RetryPolicy = RetryPolicy(),
        decoder: PictureDecoder = PictureDecoder(),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }
    ) {
        self.catalog = catalog
        self.transport = transport
        self.cache = cache
        self.offline = offline
        self.slots = RequestSlots(limit: maxConnections)
        self.lock = cache.flatMap { FetchLock(directory: $0.path, file: "fetch.lock") }
        self.retry = retry
        self.decoder = decoder
        self.clock = clock
    }

    /// Requests this client sent to the image host (retries included).
    public var networkFetches: Int { fetchCount.load(ordering: .relaxed) }

    public func shutdown() async { await transport.shutdown() }

    /// The sizes `/configuration` lists for `kind`, and its base URL. Offline without a cached
    /// configuration, TMDb's long-standing sizes stand in (only the cache answers then anyway).
    public func imageConfiguration() async throws -> ImageConfiguration {
        do {
            return try await catalog.configuration().images
        } catch CatalogError.notCached {
            return ImageConfiguration.tmdbDefault
        }
    }

    /// The image at TMDb `path` (as a title's `poster_path` gives it) of `kind`, at `size`.
    public func image(_ path: String, kind: ImageConfiguration.Kind, size: ImageSizeChoice) async throws -> FetchedImage {
        let configuration = try await imageConfiguration()
        let located = try locate(path, kind: kind, size: size, in: configuration)
        if let image = try cachedCopy(located) { return image }
        if offline {
            if let other = try otherCachedSize(of: located.file, kind: kind, wanted: located.size, configuration) { return other }
            throw CatalogError.notCached(endpoint: "image \(located.key)")
        }
        return try await flights.run(located.key) {
            try await self.lockedFetch(key: located.key, url: located.url, size: located.size)
        }
    }

    /// The image if it is at hand, else nil: in the cache in the size `size` picks, or made in
    /// this process (the sample's art, `ImageTransport.isLocal`). Nothing goes on the network but
    /// TMDb's `/configuration` when no copy of it is at hand (it names the sizes).
    public func cachedImage(_ path: String, kind: ImageConfiguration.Kind, size: ImageSizeChoice) async throws -> FetchedImage? {
        if transport.isLocal { return try await image(path, kind: kind, size: size) }
        // What cannot be located is `image`'s to refuse, in its words.
        guard let located = try? locate(path, kind: kind, size: size, in: try await imageConfiguration()) else { return nil }
        return try cachedCopy(located)
    }

    /// Where an image is: the size chosen, its URL, the file, and its key in the cache.
    private struct Located {
        let size: String
        let url: String
        let file: String
        var key: String { size + "/" + file }
    }

    /// `path` at `size` in `configuration`: a size TMDb offers (else a usage error), at an http(s)
    /// URL (a configuration naming another scheme, a Unix socket, a file, is refused).
    private func locate(_ path: String, kind: ImageConfiguration.Kind, size: ImageSizeChoice, in configuration: ImageConfiguration) throws -> Located {
        guard let sizeName = size.pick(from: configuration.sizes(for: kind), kind: kind) else {
            throw Failure(.usage, "TMDb has no \(kind.rawValue) size \(Self.named(size)); its \(kind.rawValue) sizes are \(configuration.sizes(for: kind).joined(separator: ", "))")
        }
        guard let url = configuration.url(path, kind: kind, size: sizeName) else {
            throw CatalogError.notFound(endpoint: "image \(path)")
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw CatalogError.malformedResponse(endpoint: "/configuration", detail: "the image base URL is not an http(s) URL")
        }
        return Located(size: sizeName, url: url, file: path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// The cache's copy of `located`, when it has one that checks out.
    private func cachedCopy(_ located: Located) throws -> FetchedImage? {
        guard let cached = try cache?.lookup(located.key, now: clock()) else { return nil }
        return try? checked(cached.bytes, url: located.url, size: located.size, fromCache: true)
    }

    /// Offline, another size of the same image from the cache: the smallest larger one, else the
    /// largest smaller one (a poster drawn a little soft beats none).
    private func otherCachedSize(of file: String, kind: ImageConfiguration.Kind, wanted: String, _ configuration: ImageConfiguration) throws -> FetchedImage? {
        guard let cache else { return nil }
        let sizes = configuration.sizes(for: kind)
        guard let index = sizes.firstIndex(of: wanted) else { return nil }
        for size in Array(sizes[(index + 1)...]) + sizes[..<index].reversed() {
            guard let cached = try cache.lookup(size + "/" + file, now: clock()),
                  let url = configuration.url("/" + file, kind: kind, size: size),
                  let image = try? checked(cached.bytes, url: url, size: size, fromCache: true) else { continue }
            return image
        }
        return nil
    }

    private static func named(_ size: ImageSizeChoice) -> String {
        if case .named(let name) = size { return name }
        return "?"
    }

    private func lockedFetch(key: String, url: String, size: String) async throws -> FetchedImage {
        guard let lock, let cache else { return try await fetch(key: key, url: url, size: size) }
        return try await lock.withLock(key) {
            // Another process may have fetched it while this one waited.
            if let cached = try cache.lookup(key, now: clock()), let image = try? checked(cached.bytes, url: url, size: size, fromCache: true) {
                return image
            }
            return try await fetch(key: key, url: url, size: size)
        }
    }

    private func fetch(key: String, url: String, size: String) async throws -> FetchedImage {
        let endpoint = "image \(key)"
        var attempt = 0
        while true {
            var failure: CatalogError
            var wait: Duration?
            do {
                let response = try await slots.withSlot { try await self.transport.fetch(url) }
                fetchCount.add(1, ordering: .relaxed)
                switch response.status {
                case 200..<300:
                    let image = try checked(response.body, url: url, size: size, fromCache: false)
                    try decodable(response.body, size: size, url: url)
                    try? cache?.store(key, bytes: response.body, now: clock())
                    return image
                case 404: throw CatalogError.notFound(endpoint: endpoint)
                default:
                    // The image host refusing (401, 403, a redirect not followed) is no mistake of
                    // the user's: it is unavailable.
                    guard RetryPolicy.isRetryable(status: response.status) else {
                        throw CatalogError.unavailable(endpoint: endpoint, reason: "HTTP \(response.status)")
                    }
                    wait = response.header("retry-after").flatMap { RetryPolicy.retryAfter($0) }
                    failure = response.status == 429
                        ? .rateLimited(endpoint: endpoint, retryAfter: wait) : .unavailable(endpoint: endpoint, reason: "HTTP \(response.status)")
                    if let wait, wait > retry.maximumRetryAfter { throw failure }
                }
            } catch let transportFailure as TransportFailure {
                fetchCount.add(1, ordering: .relaxed)
                failure = .unavailable(endpoint: endpoint, reason: transportFailure.reason)
                if !transportFailure.isTransient { throw failure }
            }
            attempt += 1
            guard attempt <= retry.maximumRetries else { throw failure }
            try await Task.sleep(for: wait ?? retry.backoff(attempt: attempt))
        }
    }

    /// A fetched image decodes (a JPEG at ⅛ scale, which still reads all its coded data; a PNG
    /// whole), before it is cached: damage between a whole header and a whole end is found once,
    /// here, not at every draw.
    private func decodable(_ bytes: [UInt8], size: String, url: String) throws {
        do {
            _ = try decoder.decode(bytes, atLeast: (1, 1))
        } catch {
            throw CatalogError.malformedResponse(endpoint: "image \(size)/\(url.split(separator: "/").last ?? "")", detail: error.description)
        }
    }

    /// The bytes as an image: a JPEG or PNG whose header reads, which ends as a whole file does,
    /// and whose pixels are within the decoder's limit. Anything else (an HTML error page, half a file) is a malformed response
    /// and is never cached.
    private func checked(_ bytes: [UInt8], url: String, size: String, fromCache: Bool) throws -> FetchedImage {
        do {
            // The pixel limit is the decoder's, checked on the header (`dimensions`).
            let (format, width, height) = try decoder.dimensions(of: bytes)
            guard PictureDecoder.isWhole(bytes) else { throw PictureError.undecodable(format: format.rawValue, reason: "the file is truncated") }
            return FetchedImage(url: url, size: size, format: format, width: width, height: height, bytes: bytes, fromCache: fromCache)
        } catch let error as PictureError {
            throw CatalogError.malformedResponse(endpoint: "image \(size)/\(url.split(separator: "/").last ?? "")", detail: error.description)
        }
    }
}

import HTTPTypes
import Hummingbird
import Reel

/// TMDb's images through Reel (`/images/{kind}/{size}/{file}`, as TMDb's image host has them
/// under `/t/p/{size}/{file}`): the bytes from Reel's image cache, or fetched once through the
/// polite image client and cached, or the sample catalog's generated art, so a page shows
/// posters offline, without credentials, and never asks TMDb's host itself. TMDb's image paths
/// are content-addressed (a new image gets a new path), so an answer may be kept for a year;
/// it has a strong ETag all the same. No token: the images are TMDb's public pictures, nothing
/// of an account (and a page's `<img>` cannot send one); what a client may have fetched is
/// limited by its address (`fetches`).
struct ImageEndpoints {
    let application: Reel.Application
    /// Images fetched for one client address (not those at hand in the cache): 10 a second, 200 at
    /// once (a page's first screen of posters), so no one can have the service fetch from TMDb
    /// without end for a stream of made-up names.
    var fetches = RateLimiter(rate: 10, burst: 200, counting: "images fetched from TMDb for this address")
    /// The images answered lately, answered again from memory.
    var memory = ImageMemory()

    func add(to router: Router<ServiceRequestContext>) {
        router.get("images/:kind/:size/:file", use: image)
    }

    @Sendable func image(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let kindName = try context.parameters.require("kind")
        guard let kind = ImageConfiguration.Kind(rawValue: kindName) else {
            throw Problem.usage("the image kind \(SafeText.line(kindName)) is none of poster, backdrop, profile, still, logo")
        }
        let size = try context.parameters.require("size")
        guard size.count <= 16, size.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw Problem.usage("the size \(SafeText.line(size)) is not one of TMDb's (w342, original, …)")
        }
        let file = try context.parameters.require("file")
        guard Self.isImageFile(file) else {
            throw Problem.usage("\(SafeText.line(file)) is not an image file name as TMDb gives them (letters, digits, - and _, then .jpg or .png)")
        }
        let key = "\(kind.rawValue)/\(size)/\(file)"
        if let kept = memory.entry(key) {
            return EntityTag.answer(request, etag: kept.etag, headers: [.contentType: kept.contentType, .cacheControl: Self.year]) { kept.body }
        }
        // A size TMDb does not offer is the image client's to refuse, naming those it does.
        let image: FetchedImage
        if let cached = try await application.cachedImage(path: "/" + file, kind: kind, size: .named(size)) {
            image = cached
        } else {
            try fetches.admit(context.clientAddress)
            image = try await application.image(path: "/" + file, kind: kind, size: .named(size))
        }
        // Offline, the cache may answer with another size it holds: shown, but never kept under
        // this size's address.
        let keep = image.size == size ? Self.year : "no-store"
        let contentType = image.format == .png ? "image/png" : "image/jpeg"
        let etag = EntityTag.of(image.bytes)
        let body = ByteBuffer(bytes: image.bytes)
        if image.size == size { memory.keep(.init(body: body, etag: etag, contentType: contentType), as: key) }
        return EntityTag.answer(request, etag: etag, headers: [.contentType: contentType, .cacheControl: keep]) { body }
    }

    /// What an image answered in its own size may be kept: a year (its path names its content).
    static let year = "public, max-age=31536000, immutable"

    /// `abc123.jpg`, `reel-sample-movie-603-poster.jpg`: at most 128 characters.
    static func isImageFile(_ file: String) -> Bool {
        let lower = file.lowercased()
        guard file.count <= 128, lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".png") else { return false }
        let stem = file[..<(file.lastIndex(of: ".") ?? file.endIndex)]
        return !stem.isEmpty && stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

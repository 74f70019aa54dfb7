import HTTPTypes
import Hummingbird

/// The web app (`/` and `/app/{asset}`): plain HTML, CSS and JavaScript modules built on the JSON
/// API alone, served from the binary (`WebAssets`) with a strict Content-Security-Policy (scripts,
/// styles, images and requests from this origin only: no inline script, no other host), framing
/// refused, no referrer sent, and an ETag (the files are revalidated, so an upgraded `reel`
/// serves its new app at once).
struct WebEndpoints {
    /// What a page of the app may load and do.
    static let policy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'", "font-src 'self'",
        "manifest-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func add(to router: Router<ServiceRequestContext>) {
        router.get("/", use: page)
        router.get("app/:asset", use: asset)
    }

    @Sendable func page(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        try answer(request, WebAssets.files["index.html"])
    }

    @Sendable func asset(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let name = try context.parameters.require("asset")
        return try answer(request, name == "index.html" ? nil : WebAssets.files[name])
    }

    private func answer(_ request: Request, _ asset: WebAsset?) throws -> Response {
        guard let asset else { throw Problem.notFound("the web app has no such file") }
        let headers: HTTPFields = [
            .contentType: asset.type, .cacheControl: "no-cache", .contentSecurityPolicy: Self.policy, .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer", .xFrameOptions: "DENY", .crossOriginOpenerPolicy: "same-origin",
        ]
        return EntityTag.answer(request, etag: asset.etag, headers: headers) { ByteBuffer(bytes: asset.bytes) }
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}

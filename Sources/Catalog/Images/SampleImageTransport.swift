/// The sample catalog's images, made in-process: the generated art of `SampleImages` for the
/// paths the sample titles give, at TMDb's image URL shape (`…/t/p/SIZE/FILE`), so drawing a
/// poster works with no credentials and no network.
public struct SampleImageTransport: ImageTransport {
    public init() {}

    public var isLocal: Bool { true }

    public func fetch(_ url: String) async throws -> TransportResponse {
        let parts = url.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return TransportResponse(status: 404) }
        let size = String(parts[parts.count - 2]), path = "/" + parts[parts.count - 1]
        let made: [UInt8]?
        do { made = try SampleImages.bundled.jpeg(path: path, size: size) } catch { return TransportResponse(status: 500) }
        guard let bytes = made else { return TransportResponse(status: 404) }
        return TransportResponse(status: 200, headers: ["content-type": "image/jpeg"], body: bytes)
    }

    public func shutdown() async {}
}

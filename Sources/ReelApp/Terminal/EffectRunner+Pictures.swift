import Reel

extension EffectRunner {
    /// A picture for its box: a TMDb image through the image cache (offline: only what it has),
    /// or the account's photo from the ledger (never cached), then decoded and rendered.
    /// `cachedOnly`: a TMDb image not in the cache is `pictureNotCached`, not fetched.
    func run(picture key: PictureKey, cachedOnly: Bool = false) async -> AppMessage {
        do {
            let bytes: [UInt8]
            switch key.source {
            case .tmdb(let path, let kind):
                let size = pictures.size(for: key)
                if cachedOnly {
                    guard let cached = try await application.cachedImage(path: path, kind: kind, size: size) else { return .pictureNotCached(key) }
                    bytes = cached.bytes
                } else {
                    bytes = try await application.image(path: path, kind: kind, size: size).bytes
                }
            case .accountPhoto(let account, _):
                guard let photo = try application.photoBytes(in: application.account(try AccountHandle(account))) else {
                    return .pictureFailed(key, reason: "the account has no photo")
                }
                bytes = photo
            }
            return .pictureLoaded(key, try pictures.draw(bytes, for: key))
        } catch {
            return .pictureFailed(key, reason: Self.describe(error))
        }
    }
}

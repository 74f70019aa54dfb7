import Foundation
import Reel

/// The web app's one-time sign-in link (`reel token create --link`): the address `reel serve` is
/// reached at, with the link's secret in the fragment (`…/#signin=reel_…`). A fragment never
/// travels in a request, so the secret reaches no server log, proxy or `Referer`; the page takes
/// it from the address bar at once and spends it with `POST /v1/session`.
enum SignInLink {
    static let defaultBase = "http://127.0.0.1:8080"

    /// `text` (or the default) as an http(s) address with a host and nothing after the path.
    static func base(_ text: String?) throws -> String {
        let text = (text ?? "").isEmpty ? defaultBase : text!
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw ReelFailure(message: "--url (or REEL_SERVE_URL): expected the address 'reel serve' is reached at, such as \(defaultBase)", status: .usage)
        }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    static func address(base: String, secret: String) -> String { "\(base)/#signin=\(secret)" }
}

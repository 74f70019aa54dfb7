import Crypto
import EndToEndSupport
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ReelTestSupport
import Testing

/// A Swift client generated from the served document with swift-openapi-generator
/// (`Tools/generate_openapi_client.sh`), as an app would make one, running a flow against the
/// real `reel serve`: the document is what apps generate from, so it must make a client that
/// compiles and talks to the service.
@Suite struct GeneratedClientTests {
    /// Sends the account token, as an app's client does.
    struct BearerToken: ClientMiddleware {
        let token: String

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.authorization] = "Bearer \(token)"
            return try await next(request, body, baseURL)
        }
    }

    /// The committed client was generated from the document as it is now.
    @Test func theClientWasGeneratedFromTheDocumentAsItIs() throws {
        let document = try Data(contentsOf: URL(fileURLWithPath: Harness.root + "/Schemas/service/openapi.json"))
        let digest = SHA256.hash(data: document).map { String(format: "%02x", $0) }.joined()
        let recorded = try String(contentsOfFile: Harness.root + "/Tests/OpenAPIClientTests/openapi.sha256", encoding: .utf8)
        #expect(recorded.trimmingCharacters(in: .whitespacesAndNewlines) == digest, "the document changed: run Tools/generate_openapi_client.sh")
    }

    @Test func aGeneratedClientSavesReadsAndRemovesATitle() async throws {
        let service = try await ServiceProcess.start(Home())
        let token = try await service.token(for: "gen")
        // Reel's times carry microseconds: the client reads fractional seconds.
        let client = Client(
            serverURL: try #require(URL(string: service.url)), configuration: .init(dateTranscoder: .iso8601WithFractionalSeconds),
            transport: AsyncHTTPClientTransport(), middlewares: [BearerToken(token: token)])

        guard case .ok = try await client.health(.init()) else { Issue.record("health"); return }

        // `series`, as the command line takes it; the answer names TMDb's `tv`.
        let added = try await client.addFavorite(.init(body: .json(.init(mediaType: .series, id: 1396))))
        guard case .created(let created) = added else { Issue.record("addFavorite: \(added)"); return }
        #expect(created.headers.Location == "/v1/favorites/tv/1396")
        #expect(try created.body.json.changed)

        let one = try await client.favorite(.init(path: .init(mediaType: .tv, id: 1396)))
        guard case .ok(let found) = one else { Issue.record("favorite: \(one)"); return }
        #expect(try found.body.json.id == 1396 && found.body.json.position >= 1)

        let saved = try await client.saved(.init(query: .init(limit: 10)))
        guard case .ok(let list) = saved else { Issue.record("saved: \(saved)"); return }
        #expect(try list.body.json.total == 1 && list.body.json.count == 1)

        let removed = try await client.removeFavorite(.init(path: .init(mediaType: .series, id: 1396)))
        guard case .ok(let change) = removed else { Issue.record("removeFavorite: \(removed)"); return }
        #expect(try change.body.json.changed)
        let gone = try await client.favorite(.init(path: .init(mediaType: .tv, id: 1396)))
        guard case .notFound = gone else { Issue.record("favorite after removal: \(gone)"); return }

        guard case .ok = try await client.settings(.init()) else { Issue.record("settings"); return }
        guard case .ok = try await client.session(.init()) else { Issue.record("session"); return }
        _ = try await service.stopped()
    }
}

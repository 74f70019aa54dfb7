import Catalog
import Crypto
import Foundation
import JSONKit
import Ledger
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A TMDb-compatible HTTP server over the sample catalog, for tests, demos and benchmarks.
///
/// API requests live below `/3` exactly as on `api.themoviedb.org`; credentials are checked
/// (`Authorization: Bearer` or `api_key`), answers carry `ETag` and `Cache-Control` and honour
/// `If-None-Match`. Images live below `/t/p/SIZE/FILE` as on `image.tmdb.org`, without
/// credentials: the sample catalog's generated art (`SampleImages`) as JPEG, and `/3/configuration`
/// names this server as the image host. OMDb's API lives at `/omdb/` (`omdbBaseURL`, as on
/// `www.omdbapi.com/`): the sample catalog's OMDb facts (`SampleOMDbResponder`), with OMDb's key
/// check and daily limit. Control endpoints below `/__` inject faults and report what was served:
/// `POST /__fault?kind=…`, `GET /__stats`, `POST /__reset`.
public final class FakeTMDbServer: Sendable {
    public struct Options: Sendable {
        /// The accepted read access token; nil accepts any non-empty bearer token.
        public var token: String?
        /// The accepted v3 key; nil accepts any non-empty `api_key` (when `token` is nil too).
        public var apiKey: String?
        /// Added before every API answer and every image.
        public var latency: Duration = .zero
        /// `Cache-Control: public, max-age=…` on every 200.
        public var maxAge: Int = 300
        /// Generated movies beyond the sample catalog (ids 90000001…), for benchmarks.
        public var syntheticMovies: Int = 0
        /// The accepted OMDb `apikey`; nil accepts any non-empty one. None is 401 "No API key
        /// provided.", another 401 "Invalid API key!", as OMDb answers.
        public var omdbKey: String?
        /// OMDb's daily limit: after this many OMDb requests with an accepted key, every further
        /// one is 401 "Request limit reached!" until `/__reset` (a new day). Nil: no limit.
        public var omdbDaily: Int?

        public init() {}
    }

    public let port: Int
    public let options: Options
    /// `http://HOST:PORT/omdb/`: what `REEL_OMDB_BASE_URL` should say.
    public let omdbBaseURL: String
    private let channel: any Channel
    private let state: ServerState

    private init(port: Int, options: Options, omdbBaseURL: String, channel: any Channel, state: ServerState) {
        self.port = port
        self.options = options
        self.omdbBaseURL = omdbBaseURL
        self.channel = channel
        self.state = state
    }

    /// `http://127.0.0.1:PORT/3`: what `REEL_TMDB_BASE_URL` should say.
    public var baseURL: String { "http://127.0.0.1:\(port)/3" }

    /// `http://HOST:PORT/t/p/`: where the server's `/configuration` says images are.
    public var imageBaseURL: String { state.imageBaseURL }

    /// Starts listening (port 0 picks a free one).
    public static func start(host: String = "127.0.0.1", port: Int = 0, options: Options = Options()) async throws -> FakeTMDbServer {
        var catalog = SampleCatalog.bundled
        if options.syntheticMovies > 0 { catalog = catalog.withSyntheticMovies(options.syntheticMovies) }
        let state = ServerState(
            options: options, responder: SampleResponder(catalog: catalog), omdb: SampleOMDbResponder(catalog: catalog),
            images: options.syntheticMovies > 0 ? SampleImages(catalog: catalog) : .bundled)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(RequestHandler(state: state))
                }
            }
            .bind(host: host, port: port).get()
        guard let bound = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        state.serveImages(at: "http://\(Self.urlHost(host)):\(bound)/t/p/")
        let omdbBase = "http://\(Self.urlHost(host)):\(bound)\(RequestHandler.omdbPath)/"
        return FakeTMDbServer(port: bound, options: options, omdbBaseURL: omdbBase, channel: channel, state: state)
    }

    /// The host to name in URLs: a wildcard address is reached on the loopback one.
    static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    public func stop() async {
        try? await channel.close()
    }

    public var statistics: ServerStatistics { state.statistics }

    public func inject(_ fault: Fault) { state.inject(fault) }

    public func reset() { state.reset() }
}

/// Everything the handlers share, behind one lock.
final class ServerState: Sendable {
    let options: Options
    let responder: SampleResponder
    let omdb: SampleOMDbResponder
    /// The art of the catalog served, synthetic titles' too (`SampleImages` of the same catalog).
    let images: SampleImages
    private let imageBase = Mutex("")
    private let stats = Mutex(ServerStatistics())
    private let faults = Mutex<[Fault]>([])
    /// OMDb requests served today (with an accepted key), against `Options.omdbDaily`.
    private let omdbSpent = Mutex(0)
    private let started = ContinuousClock.now

    typealias Options = FakeTMDbServer.Options

    /// What a fault is matched against: TMDb's API, its images, or OMDb (see `Fault.pathPrefix`).
    enum Target { case api, image, omdb }

    init(options: Options, responder: SampleResponder, omdb: SampleOMDbResponder, images: SampleImages) {
        self.options = options
        self.responder = responder
        self.omdb = omdb
        self.images = images
    }

    var statistics: ServerStatistics { stats.withLock { $0 } }

    var imageBaseURL: String { imageBase.withLock { $0 } }

    /// Names the server's own address as the image host (known once it listens).
    func serveImages(at url: String) {
        imageBase.withLock { $0 = url }
    }

    /// `/configuration`, naming this server as the image host.
    var configuration: SampleResponder.Answer {
        SampleResponder.configuration(imageBaseURL: imageBaseURL)
    }

    func update(_ body: (inout ServerStatistics) -> Void) { stats.withLock { body(&$0) } }

    func inject(_ fault: Fault) { faults.withLock { $0.append(fault) } }

    func reset() {
        stats.withLock { s in
            let open = s.connectionsOpen
            s = ServerStatistics()
            s.connectionsOpen = open
        }
        faults.withLock { $0.removeAll() }
        omdbSpent.withLock { $0 = 0 }
    }

    /// The next fault that applies to `path` of `target`, used up by one.
    func takeFault(for path: String, target: Target = .api) -> Fault.Kind? {
        faults.withLock { list in
            guard let index = list.firstIndex(where: { fault in
                let applies = switch target {
                case .api: fault.kind.appliesToTMDb
                case .image: fault.kind.appliesToImages
                case .omdb: true
                }
                return applies && fault.count > 0 && (fault.pathPrefix.map(path.hasPrefix) ?? true)
            }) else { return nil }
            list[index].count -= 1
            let kind = list[index].kind
            if list[index].count == 0 { list.remove(at: index) }
            return kind
        }
    }

    /// Nanoseconds since the server started.
    private var now: UInt64 {
        let elapsed = ContinuousClock.now - started
        return UInt64(elapsed.components.seconds) * 1_000_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000)
    }

    func recordArrival(path: String, page: String? = nil) {
        let ns = now
        stats.withLock { s in
            s.requests += 1
            s.byPath[path, default: 0] += 1
            if let page { s.byPage["\(path)?page=\(page)", default: 0] += 1 }
            s.arrivals.append(ns)
            s.inFlight += 1
            s.maxInFlight = max(s.maxInFlight, s.inFlight)
        }
    }

    /// An OMDb request arrived, asking for `imdbID` (when by id).
    func recordOMDbArrival(imdbID: String?) {
        let ns = now
        stats.withLock { s in
            s.omdbRequests += 1
            if let imdbID { s.omdbByIMDbID[imdbID, default: 0] += 1 }
            s.omdbArrivals.append(ns)
            s.omdbInFlight += 1
            s.omdbMaxInFlight = max(s.omdbMaxInFlight, s.omdbInFlight)
        }
    }

    /// Counts one OMDb request against the daily limit; false when the limit is spent.
    func spendOMDbRequest() -> Bool {
        guard let daily = options.omdbDaily else { return true }
        return omdbSpent.withLock { spent in
            guard spent < daily else { return false }
            spent += 1
            return true
        }
    }

    /// True when the request carries an accepted credential.
    func authorized(bearer: String?, apiKey: String?) -> Bool {
        switch (options.token, options.apiKey) {
        case (nil, nil):
            return !(bearer ?? "").isEmpty || !(apiKey ?? "").isEmpty
        case (let token, let key):
            if let token, bearer == token { return true }
            if let key, apiKey == key { return true }
            return false
        }
    }

    static func etag(_ body: [UInt8]) -> String {
        "\"" + SHA256.hash(data: body).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }
}

/// One connection: reads a request, answers it (after any latency), keeps the connection alive.
final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let state: ServerState
    private var head: HTTPRequestHead?

    init(state: ServerState) { self.state = state }

    func channelActive(context: ChannelHandlerContext) {
        state.update { s in
            s.connectionsAccepted += 1
            s.connectionsOpen += 1
            s.maxConnectionsOpen = max(s.maxConnectionsOpen, s.connectionsOpen)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.update { $0.connectionsOpen -= 1 }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            handle(head, context: context)
        }
    }

    struct Reply {
        var status: Int
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        var truncate = false
        var reset = false
        var delay: Duration = .zero
    }

    private func handle(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let (path, rawQuery) = Self.split(head.uri)
        guard let query = QueryItem.parse(query: rawQuery) else {
            return send(Reply(status: 400, body: Array(#"{"success":false,"status_code":47,"status_message":"The input is not valid."}"#.utf8)), head: head, context: context, counted: .no)
        }
        if path.hasPrefix("/__") {
            return send(control(path, query), head: head, context: context, counted: .no)
        }
        if path.hasPrefix(Self.imagePrefix) {
            state.recordArrival(path: path)
            var reply = image(path, head)
            reply.delay += state.options.latency
            return send(reply, head: head, context: context, counted: .tmdb)
        }
        if path == Self.omdbPath || path == Self.omdbPath + "/" {
            let imdbID = query.first { $0.name.lowercased() == "i" }?.value
            state.recordOMDbArrival(imdbID: imdbID)
            var reply = omdb(query)
            reply.delay += state.options.latency
            return send(reply, head: head, context: context, counted: .omdb)
        }
        guard path.hasPrefix("/3/") else {
            return send(Reply(status: 404, body: SampleResponder.resourceNotFound.body), head: head, context: context, counted: .no)
        }
        let apiPath = String(path.dropFirst(2))
        state.recordArrival(path: apiPath, page: query.first { $0.name == "page" }?.value)
        var reply = answer(apiPath, query, head)
        reply.delay += state.options.latency
        send(reply, head: head, context: context, counted: .tmdb)
    }

    /// Which figures a reply counts in when written: TMDb's (API and images), OMDb's, or none (control).
    enum Counted { case no, tmdb, omdb }

    private func answer(_ path: String, _ query: [QueryItem], _ head: HTTPRequestHead) -> Reply {
        let bearer = head.headers.first(name: "authorization").flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        let apiKey = query.first { $0.name == "api_key" }?.value
        guard state.authorized(bearer: bearer, apiKey: apiKey) else {
            state.update { $0.unauthorized += 1 }
            return Reply(status: 401, body: SampleResponder.invalidAPIKey.body)
        }
        if let token = bearer, query.contains(where: { $0.value.contains(token) }) { state.update { $0.credentialLeaks += 1 } }
        var delay: Duration = .zero
        switch state.takeFault(for: path) {
        case .status(let status, let retryAfter)?:
            var reply = Reply(status: status, body: Self.errorBody(status))
            if let retryAfter { reply.headers.append(("Retry-After", retryAfter)) }
            return reply
        case .malformedJSON?:
            return Reply(status: 200, headers: [("Content-Type", "application/json;charset=utf-8")], body: Array(#"{"id": 550, "title": "Fight Cl"#.utf8))
        case .wrongType?:
            return Reply(status: 200, headers: [("Content-Type", "application/json;charset=utf-8")], body: Array(#"{"id":"five-fifty","title":"Fight Club","results":"none","genres":"none"}"#.utf8))
        case .truncatedBody?:
            var reply = ok(path, query, head)
            reply.truncate = true
            return reply
        case .halfBody?:
            var reply = ok(path, query, head)
            reply.body = Array(reply.body.prefix(reply.body.count / 2))
            return reply
        case .connectionReset?:
            return Reply(status: 0, reset: true)
        case .latency(let ms)?:
            delay = .milliseconds(ms)
        case .hostileText?:
            return ok(path, query, head) { key, text in
                Self.hostileKeys.contains(key) ? Fault.hostilePrefix + text + Fault.hostileSuffix : text
            }
        case .markupText?:
            return ok(path, query, head) { key, text in
                Self.hostileKeys.contains(key) ? Fault.markupPrefix + text + Fault.markupSuffix : text
            }
        case .formulaText?:
            return ok(path, query, head) { key, text in
                ["title", "original_title", "name", "original_name"].contains(key) ? "=HYPERLINK(\"https://evil.example/\",\"\(text)\")" : text
            }
        case .wideText?:
            return ok(path, query, head) { key, text in
                ["title", "original_title", "name", "original_name"].contains(key) ? Self.wide(text) : text
            }
        case .omdbError?, .omdbLimit?, .omdbInvalidKey?, nil:
            // OMDb's own faults never reach TMDb's API (`Fault.Kind.appliesToTMDb`).
            break
        }
        var reply = ok(path, query, head)
        reply.delay = delay
        return reply
    }

    /// One of `Fault.wideTitles` for `text`: the same text always gets the same one.
    static func wide(_ text: String) -> String {
        let index = text.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return Fault.wideTitles[index % Fault.wideTitles.count]
    }

    /// The catalog's answer, its texts passed through `rewrite` (by member name) when given.
    private func ok(_ path: String, _ query: [QueryItem], _ head: HTTPRequestHead, rewrite: ((String, String) -> String)? = nil) -> Reply {
        let answer = path == "/configuration" ? state.configuration : state.responder.respond(path: path, query: query.filter { $0.name != "api_key" })
        var headers = [("Content-Type", "application/json;charset=utf-8")]
        guard answer.status == 200 else { return Reply(status: answer.status, headers: headers, body: answer.body) }
        let body = rewrite.map { Self.rewriting(answer.body, $0) } ?? answer.body
        let tag = ServerState.etag(body)
        headers.append(("ETag", tag))
        headers.append(("Cache-Control", "public, max-age=\(state.options.maxAge)"))
        if let match = head.headers.first(name: "if-none-match"), match == tag || match == "*" {
            state.update { $0.notModified += 1 }
            return Reply(status: 304, headers: headers.filter { $0.0 != "Content-Type" })
        }
        return Reply(status: 200, headers: headers, body: body)
    }

    /// Where images live, as on `image.tmdb.org`: `/t/p/SIZE/FILE`.
    static let imagePrefix = "/t/p/"

    /// An image at `/t/p/SIZE/FILE`, as TMDb's image host serves it: no credentials, a JPEG with
    /// an `ETag`, cached for a year, 404 for a file or size the catalog does not have. Faults
    /// that apply to images (`Fault.Kind.appliesToImages`) apply here, matched on the whole path.
    private func image(_ path: String, _ head: HTTPRequestHead) -> Reply {
        var delay: Duration = .zero
        var truncate = false, half = false
        switch state.takeFault(for: path, target: .image) {
        case .status(let status, let retryAfter)?:
            var reply = Reply(status: status, body: Self.errorBody(status))
            if let retryAfter { reply.headers.append(("Retry-After", retryAfter)) }
            return reply
        case .connectionReset?: return Reply(status: 0, reset: true)
        case .latency(let ms)?: delay = .milliseconds(ms)
        case .truncatedBody?: truncate = true
        case .halfBody?: half = true
        case .malformedJSON?, .wrongType?, .hostileText?, .markupText?, .formulaText?, .wideText?, .omdbError?, .omdbLimit?, .omdbInvalidKey?, nil: break
        }
        let notFound = Reply(status: 404, headers: [("Content-Type", "application/json;charset=utf-8")], body: SampleResponder.resourceNotFound.body, delay: delay)
        let parts = path.dropFirst(Self.imagePrefix.count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return notFound }
        let bytes: [UInt8]
        do {
            guard let found = try state.images.jpeg(path: "/" + parts[1], size: String(parts[0])) else { return notFound }
            bytes = found
        } catch {
            return Reply(status: 500, body: Self.errorBody(500), delay: delay)
        }
        let tag = ServerState.etag(bytes)
        var headers = [("Content-Type", "image/jpeg"), ("ETag", tag), ("Cache-Control", "public, max-age=31536000")]
        if let match = head.headers.first(name: "if-none-match"), match == tag || match == "*" {
            state.update { $0.notModified += 1 }
            headers.removeFirst()
            return Reply(status: 304, headers: headers, delay: delay)
        }
        return Reply(status: 200, headers: headers, body: half ? Array(bytes.prefix(bytes.count / 2)) : bytes, truncate: truncate, delay: delay)
    }

    /// The texts people read (titles, names, overviews, roles, trailer keys), which the `hostile`
    /// fault wraps in `Fault.hostilePrefix` and `Fault.hostileSuffix`.
    static let hostileKeys: Set<String> = [
        "title", "original_title", "name", "original_name", "overview", "tagline", "character", "job", "biography",
        "place_of_birth", "known_for_department", "english_name", "status", "key",
    ]

    /// `body` (JSON) with every string member passed through `change` (member name, text).
    static func rewriting(_ body: [UInt8], _ change: (String, String) -> String) -> [UInt8] {
        func rewrite(_ value: JSONValue, key: String?) -> JSONValue {
            switch value {
            case .string(let text): .string(key.map { change($0, text) } ?? text)
            case .object(let members): .object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, rewrite($0.value, key: $0.key)) }))
            case .array(let items): .array(items.map { rewrite($0, key: key) })
            default: value
            }
        }
        guard let value = try? JSONValue(parsing: body) else { return body }
        return rewrite(value, key: nil).encoded()
    }

    /// TMDb's body for an error status.
    static func errorBody(_ status: Int) -> [UInt8] {
        let text: String
        switch status {
        case 429: text = #"{"status_code":25,"status_message":"Your request count (#) is over the allowed limit of (40)."}"#
        case 500: text = #"{"success":false,"status_code":11,"status_message":"Internal error: Something went wrong, contact TMDB."}"#
        case 502: text = #"{"success":false,"status_code":43,"status_message":"Couldn't connect to the backend server."}"#
        case 503: text = #"{"success":false,"status_code":9,"status_message":"Service offline: This service is temporarily offline, try again later."}"#
        case 504: text = #"{"success":false,"status_code":24,"status_message":"Your request to the backend server timed out. Try again."}"#
        case 401: return SampleResponder.invalidAPIKey.body
        case 404: return SampleResponder.resourceNotFound.body
        default: text = #"{"success":false,"status_code":47,"status_message":"The input is not valid."}"#
        }
        return Array(text.utf8)
    }

    private func control(_ path: String, _ query: [QueryItem]) -> Reply {
        let params = Dictionary(query.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let json = [("Content-Type", "application/json")]
        switch path {
        case "/__stats":
            return Reply(status: 200, headers: json, body: state.statistics.json.encoded())
        case "/__reset":
            state.reset()
            return Reply(status: 200, headers: json, body: Array(#"{"reset":true}"#.utf8))
        case "/__fault":
            guard let fault = Fault(parameters: params) else {
                return Reply(status: 400, headers: json, body: Array(#"{"error":"unknown fault: kind=status&status=N[&retry_after=S], malformed, wrong-type, truncate, half, reset, latency&ms=N, hostile, markup, formula, wide, omdb-error[&message=TEXT], omdb-limit, omdb-invalid-key; count=N, path=PREFIX"}"#.utf8))
            }
            state.inject(fault)
            return Reply(status: 200, headers: json, body: Array(#"{"injected":true}"#.utf8))
        default:
            return Reply(status: 404, headers: json, body: Array(#"{"error":"unknown control endpoint"}"#.utf8))
        }
    }

    func send(_ reply: Reply, head: HTTPRequestHead, context: ChannelHandlerContext, counted: Counted) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let work: @Sendable () -> Void = {
            let (handler, context) = loopBound.value
            handler.write(reply, head: head, context: context, counted: counted)
        }
        if reply.delay > .zero {
            let ns = reply.delay.components.seconds * 1_000_000_000 + reply.delay.components.attoseconds / 1_000_000_000
            context.eventLoop.scheduleTask(in: .nanoseconds(ns)) { work() }
        } else {
            work()
        }
    }

    private func write(_ reply: Reply, head: HTTPRequestHead, context: ChannelHandlerContext, counted: Counted) {
        switch counted {
        case .tmdb:
            state.update { s in
                s.inFlight -= 1
                if !reply.reset { s.byStatus[reply.status, default: 0] += 1 }
            }
        case .omdb:
            state.update { s in
                s.omdbInFlight -= 1
                if !reply.reset { s.omdbByStatus[reply.status, default: 0] += 1 }
            }
        case .no:
            break
        }
        if reply.reset {
            // SO_LINGER 0: closing sends RST, as a dropped connection does.
            let channel = context.channel
            if let provider = channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
            } else {
                channel.close(promise: nil)
            }
            return
        }
        var headers = HTTPHeaders(reply.headers)
        headers.replaceOrAdd(name: "Content-Length", value: String(reply.body.count))
        let keepAlive = head.isKeepAlive && !reply.truncate
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if reply.truncate {
            // Half the announced body, then the connection closes.
            let half = context.channel.allocator.buffer(bytes: reply.body.prefix(reply.body.count / 2))
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(half)))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        if !reply.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    static func split(_ uri: String) -> (String, Substring) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), uri[uri.index(after: mark)...])
    }
}

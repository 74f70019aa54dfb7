import Foundation
import HTTPTypes
import Hummingbird
import Reel
import ReportJSON

/// The routes of one account, the one its bearer token names (`/v1/...`): favorites, the saved
/// list, settings, history, export and import, deletion. Each parses the request, calls one use
/// case of the application core and renders its report; nothing here decides anything.
struct AccountEndpoints {
    let application: Reel.Application
    let input: RequestInput
    let generator: String
    let savedAnswers: SavedAnswers

    func add(to group: RouterGroup<ServiceRequestContext>) {
        group.post("favorites", use: addFavorite)
        group.get("favorites/:mediaType/:id", use: favorite)
        group.delete("favorites/:mediaType/:id", use: removeFavorite)
        group.get("saved", use: saved)
        group.get("settings", use: settings)
        group.put("settings/name", use: rename)
        group.put("settings/language", use: switchLanguage)
        group.get("settings/photo", use: photo)
        group.put("settings/photo", use: changePhoto)
        group.delete("settings/photo", use: removePhoto)
        group.get("history", use: history)
        group.get("export", use: export)
        group.post("import", use: importList)
        group.delete("account", use: deleteAccount)
    }

    @Sendable func addFavorite(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let body = try await input.object(request)
        let type = try Self.mediaType(RequestInput.string(body, "mediaType"))
        guard let id = body["id"]?.integerValue else { throw Problem.usage("\"id\" must be a TMDb id, a whole number") }
        let key = try MediaKey(type, id)
        let report = try await application.addFavorites([key], for: context.boundAccount(), requestKey: Self.requestKey(request))
        guard report.changed else { return JSONResponse(ReportJSON.change(report)) }
        return JSONResponse(ReportJSON.change(report), status: .created, headers: [.location: Self.location(of: key)])
    }

    /// One saved title (now, or as of `asOf`): when it was added and the log position of that
    /// event; 404 when it is not saved. Where a 201 from `POST /v1/favorites` points.
    @Sendable func favorite(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let type = try Self.mediaType(context.parameters.require("mediaType"))
        guard let id = Int64(try context.parameters.require("id")) else { throw Problem.usage("the id in the path must be a TMDb id, a whole number") }
        let key = try MediaKey(type, id)
        let view = try application.account(context.boundAccount(), asOf: Self.asOf(request))
        guard let item = view.state.saved.item(key) else { throw Problem.notFound("\(type.noun) \(id) is not saved") }
        return JSONResponse([
            "mediaType": .string(type.rawValue), "id": .integer(id), "addedAt": ReportJSON.time(item.addedAt),
            "position": .integer(Int64(item.position)),
        ])
    }

    /// `/v1/favorites/movie/550`: the saved title's own path.
    static func location(of key: MediaKey) -> String { "/v1/favorites/\(key.mediaType.rawValue)/\(key.id)" }

    @Sendable func removeFavorite(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let type = try Self.mediaType(context.parameters.require("mediaType"))
        guard let id = Int64(try context.parameters.require("id")) else { throw Problem.usage("the id in the path must be a TMDb id, a whole number") }
        let key = try MediaKey(type, id)
        let report = try await application.removeFavorites([key], for: context.boundAccount(), requestKey: Self.requestKey(request))
        return JSONResponse(ReportJSON.change(report))
    }

    /// The saved list: answered again from `savedAnswers` while the core says it holds, with a
    /// strong ETag (304 to an `If-None-Match` naming it); with `limit` (or a `cursor`), one page
    /// of it (`SavedPage`) and a `Link` to the next.
    @Sendable func saved(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        var query = SavedListQuery()
        if let type = RequestInput.query(request, "type") { query.mediaType = try Self.mediaType(type) }
        query.search = RequestInput.query(request, "search")
        if let sort = RequestInput.query(request, "sort") {
            guard let order = SavedListQuery.Order(rawValue: sort) else {
                throw Problem.usage("sort=\(sort): expected one of \(SavedListQuery.Order.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.order = order
        }
        query.descending = try RequestInput.flag(request, "descending") ?? query.order.descendsByDefault
        query.genres = RequestInput.queries(request, "genre")
        query.anyGenre = try RequestInput.flag(request, "anyGenre") ?? false
        query.asOf = try Self.asOf(request)
        let account = try context.boundAccount()
        let limit = try RequestInput.integer(request, "limit", in: 1...1_000)
        let cursor = try RequestInput.query(request, "cursor").map(SavedPage.Cursor.init(text:))
        let answer: SavedAnswers.Answer
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "private, no-cache"]
        if limit != nil || cursor != nil {
            let size = limit ?? SavedPage.defaultLimit
            let page = SavedPage(
                try await application.savedPage(of: account, query, limit: size, after: cursor.map { ($0.key, $0.index) }), query: query, limit: size)
            answer = page.answer
            if let next = page.next { headers[.link] = "<\(next)>; rel=\"next\"" }
        } else {
            answer = try await savedAnswers.answer(of: account, query, application: application) {
                try await application.savedList(of: account, query)
            }.0
        }
        return EntityTag.answer(request, etag: answer.etag, headers: headers) { answer.body }
    }

    @Sendable func settings(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        JSONResponse(ReportJSON.settings(try application.account(context.boundAccount(), asOf: Self.asOf(request))))
    }

    @Sendable func rename(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let name = try ProfileName(typed: RequestInput.string(try await input.object(request), "name"))
        return try await change(.rename(name), request, context)
    }

    @Sendable func switchLanguage(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let tag = try LanguageTag(typed: RequestInput.string(try await input.object(request), "language"))
        return try await change(.switchLanguage(tag), request, context)
    }

    /// The photo's bytes (now, or as of `asOf`) as they were uploaded, with their type and a
    /// strong ETag (304 to an `If-None-Match` naming it); 404 when the account has none. Read
    /// from the ledger, sealed under the account's key: private to the account, never cached
    /// by a shared cache.
    @Sendable func photo(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let view = try application.account(context.boundAccount(), asOf: Self.asOf(request))
        guard let reference = view.state.settings.photo else { throw Problem.notFound("the account has no photo") }
        // The reference names the bytes: a 304 opens nothing from the ledger.
        let headers: HTTPFields = [.contentType: reference.contentType, .cacheControl: "private, no-cache"]
        return try EntityTag.answer(request, etag: EntityTag.of(sha256Hex: reference.sha256), headers: headers) {
            guard let bytes = try application.photoBytes(in: view) else { throw Problem.notFound("the account has no photo") }
            return ByteBuffer(bytes: bytes)
        }
    }

    @Sendable func changePhoto(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let bytes = try await input.bytes(request, limit: input.settings.maximumPhoto)
        let report = try application.changePhoto(to: bytes, from: "the photo", for: context.boundAccount())
        return JSONResponse(ReportJSON.change(report))
    }

    @Sendable func removePhoto(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        try await change(.removePhoto, request, context)
    }

    @Sendable func history(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let limit = try RequestInput.integer(request, "limit", in: 1...100_000)
        let report = try await application.history(of: context.boundAccount(), asOf: Self.asOf(request), limit: limit)
        return JSONResponse(ReportJSON.history(report))
    }

    /// The export, streamed in pieces as it is written out (a large account's is megabytes).
    @Sendable func export(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let formatName = RequestInput.query(request, "format") ?? "reel"
        guard let format = ExportFormat(rawValue: formatName) else { throw Problem.usage("format=\(formatName): expected reel or letterboxd") }
        let details = try RequestInput.flag(request, "details") ?? true
        let report = try await application.export(context.boundAccount(), format: format, details: details, generator: generator)
        let document = report.document
        let body = ResponseBody(contentLength: document.count) { writer in
            var offset = 0
            while offset < document.count {
                let end = min(document.count, offset + 64 * 1024)
                try await writer.write(ByteBuffer(bytes: document[offset..<end]))
                offset = end
            }
            try await writer.finish(nil)
        }
        let type = format == .reel ? "application/json" : "text/csv; charset=utf-8"
        let name = "reel-\(report.handle.value)." + (format == .reel ? "json" : "csv")
        return Response(
            status: .ok, headers: [.contentType: type, .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "no-store"], body: body)
    }

    @Sendable func importList(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let format: InterchangeFormat?
        if let name = RequestInput.query(request, "format") {
            guard let known = InterchangeFormat(name: name) else {
                throw Problem.usage("format=\(name): expected one of \(InterchangeFormat.allCases.map(\.name).joined(separator: ", "))")
            }
            format = known
        } else {
            format = nil
        }
        let dryRun = try RequestInput.flag(request, "dryRun") ?? false
        let bytes = try await input.bytes(request, limit: input.settings.maximumImport)
        let report = try await application.importFile(bytes, file: "the request body", format: format, into: context.boundAccount(), dryRun: dryRun)
        return JSONResponse(ReportJSON.imported(report, dryRun: dryRun))
    }

    @Sendable func deleteAccount(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        return JSONResponse(ReportJSON.deletion(try application.deleteAccount(context.boundAccount())))
    }

    private func change(_ command: Command, _ request: Request, _ context: ServiceRequestContext) async throws -> JSONResponse {
        let report = try await application.change(command, for: context.boundAccount(), requestKey: Self.requestKey(request))
        return JSONResponse(ReportJSON.change(report))
    }

    /// `movie`, `tv` or `series` (any case; `movies` too), as the command line takes them.
    static func mediaType(_ text: String) throws -> Reel.MediaType {
        guard let type = Reel.MediaType(typed: text) else {
            throw Problem.usage("mediaType \(SafeText.line(text)): expected movie, tv or series")
        }
        return type
    }

    /// The `Idempotency-Key` header: a retried request with the same key appends once.
    static func requestKey(_ request: Request) -> String? {
        request.headers[.idempotencyKey]
    }

    /// `asOf`: a log position (`1234`), a stream version (`v12`) or an ISO 8601 time with a zone.
    static func asOf(_ request: Request) throws -> AsOf? {
        guard let text = RequestInput.query(request, "asOf") else { return nil }
        if let position = UInt64(text), position > 0 { return .position(position) }
        if text.hasPrefix("v"), let version = UInt64(text.dropFirst()), version > 0 { return .streamVersion(version) }
        if let micros = UTCTime.parse(text) { return .time(micros) }
        throw Problem.usage("asOf=\(text): expected a log position (1234), a stream version (v12) or a time (2026-11-24T07:56:00Z)")
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}

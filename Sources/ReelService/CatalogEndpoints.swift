import Foundation
import Hummingbird
import Reel
import ReportJSON

/// The catalog as the token's account reads it (`/v1/catalog/...`, `/v1/search`): browse lists,
/// search and a title's details in the account's language, with when the account saved each
/// title, through the application's one polite, cached TMDb client.
struct CatalogEndpoints {
    let application: Reel.Application

    func add(to group: RouterGroup<ServiceRequestContext>) {
        group.get("catalog/:mediaType", use: browse)
        group.get("catalog/:mediaType/:id", use: details)
        group.get("search", use: search)
        group.get("genres", use: genres)
        group.get("languages", use: languages)
    }

    /// TMDb's genres in the account's language: both kinds, or one (`type`).
    @Sendable func genres(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let type = try RequestInput.query(request, "type").map(AccountEndpoints.mediaType)
        return JSONResponse(ReportJSON.genres(try await application.genres(type, for: context.account())))
    }

    /// The languages an account may choose (`PUT /v1/settings/language`), and its own.
    @Sendable func languages(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        JSONResponse(ReportJSON.languages(try application.languages(for: context.account())))
    }

    @Sendable func browse(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        var query = TitleListQuery(mediaType: try AccountEndpoints.mediaType(context.parameters.require("mediaType")))
        if let list = RequestInput.query(request, "list") {
            guard let known = TitleListQuery.List(rawValue: list) else { throw Problem.usage("list=\(list): expected discover, popular or top-rated") }
            query.list = known
        }
        if let sort = RequestInput.query(request, "sort") {
            guard let order = TitleListQuery.Order(rawValue: sort) else {
                throw Problem.usage("sort=\(sort): expected one of \(TitleListQuery.Order.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.order = order
        }
        query.descending = try RequestInput.flag(request, "descending") ?? true
        query.genres = RequestInput.queries(request, "genre")
        query.anyGenre = try RequestInput.flag(request, "anyGenre") ?? false
        query.year = try RequestInput.integer(request, "year", in: TitleListQuery.years)
        query.page = try RequestInput.integer(request, "page", in: 1...500) ?? 1
        if query.list != .discover, let order = ["sort", "descending"].first(where: { RequestInput.query(request, $0) != nil }) {
            throw Problem.usage("\(order) orders discover, not TMDb's \(query.list.rawValue) list (which TMDb orders itself)")
        }
        return JSONResponse(ReportJSON.titleList(try await application.titleList(query, for: context.account())))
    }

    @Sendable func search(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        guard let text = RequestInput.query(request, "q"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Problem.usage("q: what to search for is required")
        }
        var query = SearchQuery(text)
        if let kind = RequestInput.query(request, "kind") {
            guard let known = SearchQuery.Kind(rawValue: kind) else { throw Problem.usage("kind=\(kind): expected movie, tv, person or multi") }
            query.kind = known
        }
        query.year = try RequestInput.integer(request, "year", in: TitleListQuery.years)
        query.page = try RequestInput.integer(request, "page", in: 1...500) ?? 1
        return JSONResponse(ReportJSON.search(try await application.search(query, for: context.account())))
    }

    @Sendable func details(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let type = try AccountEndpoints.mediaType(context.parameters.require("mediaType"))
        guard let id = Int64(try context.parameters.require("id")) else { throw Problem.usage("the id in the path must be a TMDb id, a whole number") }
        let similar = try RequestInput.flag(request, "similar") ?? false
        let report = try await application.titleDetails(try MediaKey(type, id), similar: similar, for: context.account())
        return JSONResponse(ReportJSON.details(report))
    }
}

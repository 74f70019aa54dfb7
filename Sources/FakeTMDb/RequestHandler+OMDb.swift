import Catalog
import NIOHTTP1

/// OMDb's API at `/omdb/` (as `www.omdbapi.com/`): the key, then the daily limit, then any fault,
/// then the sample catalog's answer (`SampleOMDbResponder`). The key is never part of an answer,
/// the statistics or anything else the server keeps.
extension RequestHandler {
    /// Where OMDb's API lives on this server (`/omdb` and `/omdb/` both answer).
    static let omdbPath = "/omdb"

    /// OMDb's headers: JSON, cached a day (OMDb sends no `ETag`).
    private static let omdbHeaders = [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "public, max-age=86400")]

    /// The OMDb texts a person reads, which the `hostile` fault wraps in `Fault.hostilePrefix` and
    /// `Fault.hostileSuffix`. The numbers (ratings, votes, Metascore, box office, year, seasons),
    /// the ids and the ratings' sources stay as they are, so a client still reads the scores and
    /// shows them beside the sanitized texts.
    static let omdbHostileKeys: Set<String> = [
        "Title", "Rated", "Released", "Runtime", "Genre", "Director", "Writer", "Actors", "Plot", "Language", "Country",
        "Awards", "Production", "Website", "DVD",
    ]

    /// OMDb's titles and names: what the `formula` and `wide` faults replace.
    static let omdbNameKeys: Set<String> = ["Title", "Director", "Writer", "Actors"]

    private func reply(_ answer: SampleOMDbResponder.Answer) -> Reply {
        Reply(status: answer.status, headers: Self.omdbHeaders, body: answer.body)
    }

    func omdb(_ query: [QueryItem]) -> Reply {
        let key = query.first { $0.name.lowercased() == "apikey" }?.value ?? ""
        guard !key.isEmpty else {
            state.update { $0.omdbUnauthorized += 1 }
            return reply(SampleOMDbResponder.noAPIKey)
        }
        if let accepted = state.options.omdbKey, key != accepted {
            state.update { $0.omdbUnauthorized += 1 }
            return reply(SampleOMDbResponder.invalidAPIKey)
        }
        guard state.spendOMDbRequest() else {
            state.update { $0.omdbLimited += 1 }
            return reply(SampleOMDbResponder.limitReached)
        }
        let imdbID = query.first { $0.name.lowercased() == "i" }?.value ?? ""
        var delay: Duration = .zero
        switch state.takeFault(for: Self.omdbPath + "/" + imdbID, target: .omdb) {
        case .status(let status, let retryAfter)?:
            let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
            var refused = reply(status == 401 ? SampleOMDbResponder.invalidAPIKey : SampleOMDbResponder.error(reason, status: status))
            if let retryAfter { refused.headers.append(("Retry-After", retryAfter)) }
            return refused
        case .malformedJSON?:
            return Reply(status: 200, headers: Self.omdbHeaders, body: Array(#"{"Title":"Fight Club","Year":"19"#.utf8))
        case .wrongType?:
            return Reply(status: 200, headers: Self.omdbHeaders, body: Array(#"{"Title":1999,"Year":["1999"],"imdbRating":8.8,"imdbVotes":null,"Ratings":"none","imdbID":137523,"Response":true}"#.utf8))
        case .truncatedBody?:
            var cut = answer(query)
            cut.truncate = true
            return cut
        case .halfBody?:
            var cut = answer(query)
            cut.body = Array(cut.body.prefix(cut.body.count / 2))
            return cut
        case .connectionReset?:
            return Reply(status: 0, reset: true)
        case .latency(let ms)?:
            delay = .milliseconds(ms)
        case .hostileText?:
            return answer(query) { key, text in
                Self.omdbHostileKeys.contains(key) ? Fault.hostilePrefix + text + Fault.hostileSuffix : text
            }
        case .markupText?:
            return answer(query) { key, text in
                Self.omdbHostileKeys.contains(key) ? Fault.markupPrefix + text + Fault.markupSuffix : text
            }
        case .formulaText?:
            return answer(query) { key, text in
                Self.omdbNameKeys.contains(key) ? "=HYPERLINK(\"https://evil.example/\",\"\(text)\")" : text
            }
        case .wideText?:
            return answer(query) { key, text in Self.omdbNameKeys.contains(key) ? Self.wide(text) : text }
        case .omdbError(let message)?:
            return reply(SampleOMDbResponder.error(message))
        case .omdbLimit?:
            return reply(SampleOMDbResponder.limitReached)
        case .omdbInvalidKey?:
            return reply(SampleOMDbResponder.invalidAPIKey)
        case nil:
            break
        }
        var served = answer(query)
        served.delay = delay
        return served
    }

    /// The catalog's OMDb answer (the key left out of what the responder sees), a title's texts
    /// passed through `rewrite` (by member name) when given; an error answer is never rewritten.
    private func answer(_ query: [QueryItem], rewrite: ((String, String) -> String)? = nil) -> Reply {
        let answer = state.omdb.respond(query: query.filter { $0.name.lowercased() != "apikey" })
        guard let rewrite, answer.status == 200, !answer.body.starts(with: Array(#"{"Response":"False""#.utf8)) else { return reply(answer) }
        return Reply(status: 200, headers: Self.omdbHeaders, body: Self.rewriting(answer.body, rewrite))
    }
}

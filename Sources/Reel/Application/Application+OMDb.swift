import Catalog
import Failures
import Foundation
import Ledger

extension Application {
    /// OMDb's facts of the title with `imdbID`, asked for as what the user is looking at; nil
    /// when OMDb is not configured. Only a mistake in its configuration (a malformed key, a bad
    /// REEL_OMDB_* value) throws: OMDb's failures are lookups, told once by the client.
    func omdbFacts(_ imdbID: String?) async throws -> OMDbLookup? {
        guard let client = try catalogs.omdb() else { return nil }
        return await client.title(imdbID, priority: .interactive)
    }

    /// OMDb's scores of the titles of `summaries`, those missing or older than a week asked for
    /// first as bulk work in `summaries`' order (the most wanted first), within the budget; with
    /// what filling did (nil when OMDb is off).
    func omdbScores(of summaries: [TitleSummary], progress: ((Int, Int) -> Void)? = nil) async throws -> ([String: OMDbScores], OMDbFillReport?) {
        guard let client = try catalogs.omdb() else { return ([:], nil) }
        let ids = summaries.compactMap(\.imdbID)
        guard !ids.isEmpty else { return ([:], nil) }
        let known = await client.scores(ids)
        let report = await client.fill(ids, known: known, progress: progress)
        // Read again only when OMDb answered something new.
        return (report.found + report.missing + report.failed == 0 ? known : await client.scores(ids), report)
    }
}

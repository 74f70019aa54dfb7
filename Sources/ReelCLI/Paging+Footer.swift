import ArgumentParser
import Foundation
import Reel

extension Paging {
    /// `page 2 of 500 (10,000 titles)`, `pages 1–3 of 500 (10,000 titles)`.
    func footer(_ noun: String = "titles", one: String = "title") -> String {
        let pages = pagesFetched > 1 ? "pages \(firstPage)–\(firstPage + pagesFetched - 1)" : "page \(firstPage)"
        return "\(pages) of \(max(totalPages, 1)) (\(totalResults.formatted()) \(totalResults == 1 ? one : noun))"
    }

    /// Checks `--page` and `--pages`.
    static func validate(page: Int, pages: Int) throws {
        guard (1...lastPage).contains(page) else { throw ValidationError("--page takes 1 to 500 (TMDb serves no page past 500)") }
        guard (1...50).contains(pages) else { throw ValidationError("--pages takes 1 to 50") }
    }
}

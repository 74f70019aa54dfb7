import Testing
@testable import Catalog

@Suite struct TMDbDateTests {
    @Test func parsesDaysAndRejectsEmptyStrings() {
        #expect(TMDbDate(parsing: "1999-10-15")?.description == "1999-10-15")
        #expect(TMDbDate(parsing: "") == nil)
        #expect(TMDbDate(parsing: "1999-13-01") == nil)
        #expect(TMDbDate(parsing: "99-10-15") == nil)
        #expect(TMDbDate(parsing: "1999-10-15")! < TMDbDate(parsing: "2000-01-01")!)
    }
}

@testable import Catalog
import JSONKit
import Ledger
import Pictures
import Testing

/// The sample catalog's images by path and size, as TMDb's image host would serve them.
@Suite struct SampleImagesTests {
    static let catalog = SampleCatalog.bundled

    /// Every title's poster: TMDb's path where the facts have one, else its generated art's.
    static var posterPaths: [String] {
        catalog.movies.map(catalog.posterPath) + catalog.series.map(catalog.posterPath)
    }

    static var backdropPaths: [String] {
        catalog.movies.map(catalog.backdropPath) + catalog.series.map(catalog.backdropPath)
    }

    @Test func everyTitleHasAPosterThatIsAJPEGOfTheSizeAsked() throws {
        #expect(Self.posterPaths.count == Self.catalog.movieCount + Self.catalog.seriesCount)
        #expect(Set(Self.posterPaths).count == Self.posterPaths.count, "each title its own")
        for path in Self.posterPaths {
            let jpeg = try #require(try SampleImages.bundled.jpeg(path: path, size: "w342"), "\(path)")
            let size = try PictureDecoder().dimensions(of: jpeg)
            #expect(size.format == .jpeg && size.width == 342 && size.height == 513, "\(path): \(size)")
        }
        let first = try #require(try SampleImages.bundled.jpeg(path: Self.posterPaths[0], size: "w92"))
        let picture = try PictureDecoder().decode(first)
        #expect(picture.width == 92 && picture.height == 138)
    }

    @Test func backdropsAreWideAndPhotosAreOfEveryPerson() throws {
        for path in Self.backdropPaths {
            let jpeg = try #require(try SampleImages.bundled.jpeg(path: path, size: "w780"), "\(path)")
            let size = try PictureDecoder().dimensions(of: jpeg)
            #expect(size.width == 780 && size.height == 439, "\(path): \(size)")
        }
        for person in Self.catalog.people.prefix(10) {
            let path = SampleImages.profilePath(personID: person.id)
            let jpeg = try #require(try SampleImages.bundled.jpeg(path: path, size: "h632"), "\(path)")
            let size = try PictureDecoder().dimensions(of: jpeg)
            #expect(size.width == 421 && size.height == 632, "\(path): \(size)")
        }
    }

    @Test func theArtIsOfTheTitleItsPathBelongsTo() throws {
        let fightClub = try #require(Self.catalog.movie(550))
        let path = try #require(fightClub.poster_path)
        #expect(SampleImages.bundled.subject(of: path) == .init(kind: .poster, title: "Fight Club", subtitle: "1999"))
        let jpeg = try #require(try SampleImages.bundled.jpeg(path: path, size: "w185"))
        let expected = try PictureEncoder.jpeg(PosterArt.picture(title: "Fight Club", subtitle: "1999", kind: .poster, width: 185, height: 278))
        let same = jpeg == expected
        #expect(same, "the poster of Fight Club (1999)")
        let backdrop = try #require(fightClub.backdrop_path)
        #expect(SampleImages.bundled.subject(of: backdrop)?.kind == .backdrop)
        let brad = SampleImages.profilePath(personID: 287)
        #expect(SampleImages.bundled.subject(of: brad) == .init(kind: .profile, title: "Brad Pitt", subtitle: "Brad Pitt"))
    }

    /// The Matrix and Breaking Bad have no TMDb poster in the facts: theirs is generated, named
    /// in the catalog's answers (list rows, details) and served like any other.
    @Test func aTitleWithoutATMDbPosterHasGeneratedArtOfItsOwn() throws {
        let matrix = try #require(Self.catalog.movie(603))
        #expect(matrix.poster_path == nil)
        let path = Self.catalog.posterPath(matrix)
        #expect(path == "/reel-sample-movie-603-poster.jpg")
        #expect(SampleImages.bundled.subject(of: path) == .init(kind: .poster, title: "The Matrix", subtitle: "1999"))
        #expect(SampleImages.bundled.subject(of: "/reel-sample-series-1396-backdrop.jpg") == .init(kind: .backdrop, title: "Breaking Bad", subtitle: "2008"))
        let summary = try #require(Self.catalog.summary(try MediaKey(.movie, 603), SampleLanguage("en")))
        #expect(summary.posterPath == path)
        // Not a title the catalog has, nor the generated path of one that has TMDb's own poster.
        #expect(SampleImages.bundled.subject(of: "/reel-sample-movie-99999999-poster.jpg") == nil)
        #expect(SampleImages.bundled.subject(of: "/reel-sample-movie-550-poster.jpg") == nil)
        #expect(SampleImages.bundled.subject(of: "/reel-sample-movie-603-cover.jpg") == nil)
    }

    @Test func anUnknownPathOrSizeIsNothing() throws {
        let poster = try #require(Self.posterPaths.first)
        #expect(try SampleImages.bundled.jpeg(path: "/nope.jpg", size: "w342") == nil)
        #expect(try SampleImages.bundled.jpeg(path: String(poster.dropFirst()), size: "w342") == nil, "paths begin with /")
        #expect(try SampleImages.bundled.jpeg(path: poster + "x", size: "w342") == nil)
        #expect(try SampleImages.bundled.jpeg(path: SampleImages.profilePath(personID: 999_999_999), size: "w185") == nil)
        for size in ["w343", "", "w", "h0", "original2", "W342", "w-342", "w342 "] {
            #expect(try SampleImages.bundled.jpeg(path: poster, size: size) == nil, "\(size)")
        }
    }

    @Test func sizesAreTMDbs() {
        func pixels(_ size: String, _ kind: PosterArt.Kind) -> [Int]? { SampleImages.sizeInPixels(size, kind: kind).map { [$0.width, $0.height] } }
        #expect(pixels("w92", .poster) == [92, 138])
        #expect(pixels("w154", .poster) == [154, 231])
        #expect(pixels("w185", .poster) == [185, 278])
        #expect(pixels("w342", .poster) == [342, 513])
        #expect(pixels("w500", .poster) == [500, 750])
        #expect(pixels("w780", .poster) == [780, 1170])
        #expect(pixels("original", .poster) == [1000, 1500])
        #expect(pixels("w300", .backdrop) == [300, 169])
        #expect(pixels("w1280", .backdrop) == [1280, 720])
        #expect(pixels("original", .backdrop) == [1920, 1080])
        #expect(pixels("w45", .profile) == [45, 68])
        #expect(pixels("h632", .profile) == [421, 632])
        #expect(pixels("original", .profile) == [600, 900])
        #expect(pixels("w9999", .poster) == nil)
        #expect(SampleImages.knownSizes == ["w45", "w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280", "h632", "original"])
    }

    @Test func imagesAreMadeOnceAndTheCacheIsBounded() throws {
        let images = SampleImages(catalog: Self.catalog, cacheLimit: 60_000)
        let paths = Self.posterPaths
        let first = try #require(try images.jpeg(path: paths[0], size: "w185"))
        #expect(images.cacheContents.images == 1 && images.cacheContents.bytes == first.count)
        let again = try images.jpeg(path: paths[0], size: "w185") == first
        #expect(again && images.cacheContents.images == 1)
        for path in paths.prefix(12) { _ = try images.jpeg(path: path, size: "w185") }
        #expect(images.cacheContents.bytes <= 60_000 && images.cacheContents.images >= 2, "\(images.cacheContents)")
        // Forgotten images are made again, byte for byte.
        let remade = try images.jpeg(path: paths[0], size: "w185") == first
        #expect(remade)
    }

    /// Every sample person's details, credits and search rows name their generated photo.
    @Test func samplePeopleHaveProfileArt() throws {
        let responder = SampleResponder(catalog: Self.catalog)
        func json(_ path: String, _ query: [QueryItem] = []) throws -> JSONValue {
            let answer = responder.respond(path: path, query: query)
            #expect(answer.status == 200, "\(path)")
            return try JSONValue(parsing: answer.body)
        }
        let brad = try json("/person/287")
        #expect(brad["profile_path"]?.stringValue == "/reel-sample-person-287.jpg")
        let credits = try json("/movie/550/credits")
        guard case .array(let cast)? = credits["cast"] else { Issue.record("no cast"); return }
        #expect(!cast.isEmpty)
        for row in cast {
            let id = try #require(row["id"]?.integerValue)
            #expect(row["profile_path"]?.stringValue == SampleImages.profilePath(personID: Int(id)))
        }
        let search = try json("/search/person", [QueryItem("query", "pitt")])
        guard case .array(let people)? = search["results"] else { Issue.record("no results"); return }
        #expect(people.contains { $0["profile_path"]?.stringValue == "/reel-sample-person-287.jpg" })
        for person in Self.catalog.people {
            #expect(try SampleImages.bundled.jpeg(path: Self.catalog.profilePath(person), size: "w45") != nil, "\(person.name)")
        }
    }
}

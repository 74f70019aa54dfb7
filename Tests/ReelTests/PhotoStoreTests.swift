import Stores
import EventLog
import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// Photos are kept sealed beside the log and come back byte for byte.
@Suite struct PhotoStoreTests {
    static let png = Array(
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

    @Test func aPhotoIsStoredSealedAndReadBack() throws {
        let dir = temporaryDirectory()
        let service = try AccountService.open(at: dir)
        let ann = try AccountHandle("ann")
        let reference = try AccountService.photoReference(for: Self.png)
        _ = try service.execute(.changePhoto(reference), for: ann, photo: Self.png)

        let (stored, bytes) = try #require(try service.photo(of: ann))
        #expect(stored == reference)
        #expect(bytes == Self.png)
        // Sealed on disk: the PNG's bytes appear nowhere in the ledger file.
        let file = try Data(contentsOf: URL(fileURLWithPath: dir + "/ledger/data.mdb"))
        #expect(file.range(of: Data(Self.png.suffix(24))) == nil)

        _ = try service.execute(.removePhoto, for: ann)
        #expect(try service.photo(of: ann) == nil)
    }
}

import Foundation
import ReelTestSupport
import Testing

/// A ledger with an account to delete and one that must survive it (`AccountDeletionTests`, and
/// the copies and PostgreSQL suites that delete the same account).
package enum DeletionFixture {
    /// Chosen so its bytes cannot turn up in a file by chance.
    package static let handle = "zq-handle-7"
    package static let name = "Zelda Quux-Unique"
    package static let other = "ann"

    /// The account to delete (`handle`: three favorites, a name, a photo: 6 events) and another
    /// one (`other`: one favorite and a name: 3 events) that must survive it.
    package static func makeLedger() async throws -> LedgerHome {
        let ledger = LedgerHome()
        let photo = temporaryDirectory("photo") + "/me.png"  // outside the data directory
        try Data(Images.png).write(to: URL(fileURLWithPath: photo))
        for (command, user) in [
            (["fav", "add", "movie", "550", "603"], handle), (["fav", "add", "tv", "1399"], handle),
            (["settings", "name", name], handle), (["settings", "photo", photo], handle),
            (["fav", "add", "movie", "13"], other), (["settings", "name", "Ann Other"], other),
        ] {
            let out = try await ledger.reel(command, user: user)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        return ledger
    }
}

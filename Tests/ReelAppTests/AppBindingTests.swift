import Reel
import Stores
import ReelTestSupport
import TerminalGraphics
import Testing

@testable import ReelApp

/// `reel ui` holds its handle across time: it binds the account it shows (`CurrentAccount`), and
/// its changes reach that account only. Deleted meanwhile by another caller and opened again
/// under the same handle, the new account is not the app's: its changes fail, with nothing
/// written, until the handle is chosen again in Settings.
@Suite struct AppBindingTests {
    @Test func theAppsChangesReachTheAccountItShowsNeverOneOpenedAgainUnderItsHandle() async throws {
        let app = Application(
            .init(dataDirectory: temporaryDirectory("app-binding"), offline: true, environment: ["HOME": temporaryDirectory("app-binding-home")]))
        let ann = try AccountHandle("ann")
        _ = try app.change(.rename(try ProfileName("Shown")), for: ann)
        let runner = EffectRunner(
            application: app, account: CurrentAccount(ann), clock: LocalClock(), pictures: PictureMaker(capabilities: .noPictures(reason: "tests")))
        guard case .saved(.loaded)? = await runner.run(.saved(.load(SavedRequest()))) else {
            Issue.record("the saved list did not load")
            return
        }

        // Another caller deletes the account and opens the handle again.
        _ = try app.deleteAccount(ann)
        _ = try app.change(.rename(try ProfileName("Other")), for: ann)

        let fightClub = FavoriteChange(.add, try MediaKey(.movie, 550), title: "Fight Club")
        let added = await runner.run(.saved(.change(fightClub, undoing: false)))
        guard case .saved(.changeFailed(_, _, let message))? = added else {
            Issue.record("the app's add reached the account opened again: \(String(describing: added))")
            return
        }
        #expect(message.contains("gone"), "\(message)")
        guard case .settings(.failed)? = await runner.run(.settings(.rename("Mallory"))) else {
            Issue.record("the app's rename reached the account opened again")
            return
        }
        let other = try app.account(ann).state
        #expect(other.saved.items.isEmpty && other.settings.name?.value == "Other")

        // Chosen again, the handle is bound to the account it names now.
        _ = await runner.run(.settings(.switchAccount("ann")))
        guard case .saved(.changed)? = await runner.run(.saved(.change(fightClub, undoing: false))) else {
            Issue.record("the app could not change the account it switched to")
            return
        }
        #expect(try app.account(ann).state.saved.items.map(\.key) == [fightClub.key])
        await app.close()
    }
}

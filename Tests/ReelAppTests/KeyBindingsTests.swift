import Foundation
import Reel
import ReelApp
import ReelTestSupport
import Testing

/// `keys.toml`: actions given other keys, read as the keys the app's logic knows; a mistake in the
/// file is one line naming the line, before the screen is taken.
@Suite struct KeyBindingsTests {
    static func bindings(_ text: String) throws -> KeyBindings {
        let dir = temporaryDirectory("keys")
        try text.write(toFile: dir + "/keys.toml", atomically: true, encoding: .utf8)
        return try KeyBindingsFile.load(dir + "/keys.toml")
    }

    /// The error `text` gives, as the app would print it (without the path).
    static func refusal(_ text: String) -> String {
        do {
            _ = try bindings(text)
            return "accepted"
        } catch let error as TerminalAppError {
            guard case .keyBindings(let path, _) = error else { return "\(error)" }
            return error.description.replacingOccurrences(of: path, with: "keys.toml")
        } catch {
            return "\(error)"
        }
    }

    @Test func withoutAFileTheDefaultsHold() throws {
        let keys = try KeyBindingsFile.load(temporaryDirectory("keys") + "/none.toml")
        #expect(keys == .standard)
        #expect(keys.translate(.character("j")) == .down && keys.translate(.down) == .down)
        #expect(keys.translate(.character("q")) == .character("q") && keys.translate(.escape) == .escape)
        #expect(keys.translate(.character("z")) == .character("z"), "a key no action names passes as it is")
        #expect(keys.names(.down) == "j ↓")
    }

    @Test func aBindingReplacesTheActionsDefaults() throws {
        let keys = try Self.bindings("""
            # mine
            [keys]
            down = ["n", "ctrl-n"]
            quit = 'Q'
            "half-down" = "ctrl-f"
            """)
        #expect(keys.translate(.character("n")) == .down && keys.translate(.control("n")) == .down)
        #expect(keys.translate(.character("j")) == nil, "j was down's and is no longer bound")
        #expect(keys.translate(.down) == nil)
        #expect(keys.translate(.character("Q")) == .character("q") && keys.translate(.character("q")) == nil)
        #expect(keys.translate(.control("f")) == .control("d") && keys.translate(.control("d")) == nil)
        // Space is details' (toggle-saved): a key that works everywhere cannot have it too.
        #expect(Self.refusal("[keys]\n\"half-down\" = \"space\"\n") == "keys.toml line 2: space is bound to both toggle-saved and half-down")
        // A text field takes keys as typed.
        #expect(keys.translate(.character("Q"), typing: true) == .character("Q"))
        // The app acts on them: Q quits, q does nothing, n moves.
        let model = AppUpdate.update(AppUpdateTests.started(), .key(.character("q"))).0
        var bound = AppUpdateTests.started()
        bound.keys = keys
        #expect(!AppUpdate.update(bound, .key(.character("q"))).0.quitting && model.quitting)
        #expect(AppUpdate.update(bound, .key(.character("Q"))).0.quitting)
        #expect(AppUpdate.update(bound, .key(.character("n"))).0.movies.cursor.position == 1)
        // A year is typed as digits even where a digit is bound.
        let typing = AppUpdateTests.type(bound, .character("y")).0
        #expect(AppUpdate.update(typing, .key(.character("Q"))).0.movies.yearField != nil)
        // The help lists the keys as bound.
        bound.showsHelp = true
        let help = AppView.draw(bound).lines().joined(separator: "\n")
        #expect(help.contains("n ctrl-n") && help.contains("Q ") && !help.contains("j ↓"), "\(help)")
    }

    /// A tab's or screen's own actions: the same key may do one thing on Saved and another on
    /// details, but not two things in one place.
    @Test func actionsOfOneTabOrScreenAreBoundWhereTheyWork() throws {
        let keys = try Self.bindings("[keys]\nsaved-sort = \"o\"\ntoggle-saved = \"x\"\n")
        #expect(keys.translate(.character("o"), context: .saved) == .character("s"))
        #expect(keys.translate(.character("o"), context: .browse) == .character("o"), "o still sorts Movies")
        #expect(keys.translate(.character("s"), context: .saved) == nil, "s no longer sorts Saved")
        #expect(keys.translate(.character("x"), context: .details) == .character("s") && keys.translate(.character("s"), context: .details) == nil)
        #expect(keys.translate(.character("x"), context: .saved) == .character("x"), "x still removes on Saved")
        // On Saved, o sorts; x on details saves.
        var model = SavedUpdateTests.loaded()
        model.keys = keys
        #expect(AppUpdate.update(model, .key(.character("o"))).0.saved.request.order == .title)
        #expect(AppUpdate.update(model, .key(.character("s"))).0.saved.request.order == .added)
        // The tab's key line says so.
        #expect(AppView.draw(model).lines()[2].hasPrefix(" o sort  S reverse  f genre"), "\(AppView.draw(model).lines()[2])")
        #expect(Self.refusal("[keys]\nremove = \"u\"\n") == "keys.toml line 2: u is bound to both undo and remove")
        #expect(Self.refusal("[keys]\nundo = \"j\"\n") == "keys.toml line 2: j is bound to both down and undo")
    }

    @Test func mistakesNameTheLine() {
        #expect(Self.refusal("[keys]\ndown = \"n\"\nyear = \"n\"\n") == "keys.toml line 3: n is bound to both down and year")
        #expect(Self.refusal("[keys]\n\nyear = \"j\"\n") == "keys.toml line 3: j is bound to both down and year")
        #expect(Self.refusal("[keys]\nquit = \"enter\"\n") == "keys.toml line 2: enter cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[keys]\nquit = \"ctrl-c\"\n") == "keys.toml line 2: ctrl-c cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[keys]\ndwon = \"n\"\n").hasPrefix("keys.toml line 2: no action is called 'dwon' (actions: down, up,"))
        #expect(Self.refusal("[keys]\ndown = \"nn\"\n").hasPrefix("keys.toml line 2: 'nn' is not a key"))
        #expect(Self.refusal("[keys]\ndown = 3\n").hasPrefix("keys.toml line 2: down takes a key or a list of keys"))
        #expect(Self.refusal("[keys]\ndown = [\"n\", 3]\n").hasPrefix("keys.toml line 2: down takes a key or a list of keys"))
        #expect(Self.refusal("[keys]\ndown = \"\\u0007\"\n").hasPrefix("keys.toml line 2: '\u{7}' is not a key"))
        #expect(Self.refusal("[keys]\ndown = \"\u{1B}\"\n").hasPrefix("keys.toml line 2: not TOML:"))
        #expect(Self.refusal("[keys]\ndown = \n").hasPrefix("keys.toml line 2: not TOML:"))
        // What the terminal sends as tab, enter and backspace is those keys.
        #expect(Self.refusal("[keys]\ndown = \"ctrl-i\"\n") == "keys.toml line 2: tab is bound to both next-tab and down")
        #expect(Self.refusal("[keys]\ndown = \"ctrl-m\"\n") == "keys.toml line 2: enter cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[keys]\ndown = \"ctrl-h\"\n") == "keys.toml line 2: backspace cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[colours]\nx = 1\n") == "keys.toml line 1: 'colours' is not a section of keys.toml; bindings go under [keys]")
    }
}

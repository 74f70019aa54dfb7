import Foundation
import Reel
import ReelApp
import ReelTestSupport
import Testing

/// `keys.toml`: actions given other keys, read as the keys the app's logic knows; a mistake in the
/// file is one line naming the line, before the screen is taken.
@Suite struct KeyBindingsTests {
    static func bindings(_ text: String) throws -> KeyBindings {
        try bindings(bytes: Array(text.utf8))
    }

    static func bindings(bytes: [UInt8]) throws -> KeyBindings {
        let dir = temporaryDirectory("keys")
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/keys.toml"))
        return try KeyBindingsFile.load(dir + "/keys.toml")
    }

    /// The error `text` gives, as the app would print it (without the path).
    static func refusal(_ text: String) -> String { refusal(bytes: Array(text.utf8)) }

    static func refusal(bytes: [UInt8]) -> String {
        do {
            _ = try bindings(bytes: bytes)
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
    @Test func theFormerNamesOfSavedsGenreKeysStillBind() throws {
        let keys = try Self.bindings("[keys]\nsaved-next-genre = \"g\"\nsaved-previous-genre = \"C\"\nfirst = \"home\"\n")
        #expect(keys.translate(.character("g"), context: .saved) == .character("f"), "saved-next-genre is saved-genres now")
        #expect(keys.translate(.character("C"), context: .saved) == .character("c"), "saved-previous-genre is saved-clear now")
        #expect(Self.refusal("[keys]\nsaved-genres = \"g\"\nsaved-next-genre = \"h\"\n").contains("given twice"), "one action under two names is given twice")
    }

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
        // A control character a string escapes is quoted escaped: nothing in the line acts on the terminal.
        #expect(Self.refusal("[keys]\ndown = \"\\u0007\"\n").hasPrefix("keys.toml line 2: '\\u{7}' is not a key"))
        #expect(Self.refusal("[keys]\ndown = \"\u{1B}\"\n").hasPrefix("keys.toml line 2: not TOML:"))
        #expect(Self.refusal("[keys]\ndown = \n").hasPrefix("keys.toml line 2: not TOML:"))
        // What the terminal sends as tab, enter and backspace is those keys.
        #expect(Self.refusal("[keys]\ndown = \"ctrl-i\"\n") == "keys.toml line 2: tab is bound to both next-tab and down")
        #expect(Self.refusal("[keys]\ndown = \"ctrl-m\"\n") == "keys.toml line 2: enter cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[keys]\ndown = \"ctrl-h\"\n") == "keys.toml line 2: backspace cannot be bound: it is the same everywhere")
        #expect(Self.refusal("[colours]\nx = 1\n") == "keys.toml line 1: 'colours' is not a section of keys.toml; bindings go under [keys]")
    }

    /// TOML beyond one `[keys]` of one-line strings, read in Swift as TOML reads it: comments,
    /// arrays over several lines, literal and multi-line strings, escapes, dotted names, an
    /// inline table, CRLF line ends and a byte order mark.
    @Test func theTOMLAPersonMayWriteIsRead() throws {
        let text = "\u{FEFF}# mine\r\n[keys] # the only table\r\ndown = [\r\n  \"n\",  # one\r\n  'ctrl-n',\r\n]\r\nup = \"\"\"\r\nK\"\"\"\r\n\"half-down\" = \"\\u00E9\"\r\n"
        let keys = try Self.bindings(text)
        #expect(keys.translate(.character("n")) == .down && keys.translate(.control("n")) == .down)
        #expect(keys.translate(.character("K")) == .up && keys.translate(.character("é")) == .control("d"))
        #expect(try Self.bindings("keys.down = \"n\"\n").translate(.character("n")) == .down)
        #expect(try Self.bindings("keys = { down = \"n\", quit = ['Q'] }\n").translate(.character("Q")) == .character("q"))
        #expect(try Self.bindings("[keys]\n").translate(.character("j")) == .down)
        #expect(Self.refusal("[keys]\ndown = \"n\"\ndown = \"m\"\n") == "keys.toml line 3: not TOML: down is given twice (also on line 2)")
        #expect(Self.refusal("[keys]\n[keys]\n") == "keys.toml line 2: not TOML: [keys] is given twice (also on line 1)")
        #expect(Self.refusal("[keys]\ndown = true\n").hasPrefix("keys.toml line 2: down takes a key or a list of keys"))
        #expect(Self.refusal("[keys]\ndown = 1979-05-27 07:32:00Z\n").hasPrefix("keys.toml line 2: down takes a key or a list of keys"))
        #expect(Self.refusal("[keys.down]\n").hasPrefix("keys.toml line 1: down takes a key or a list of keys"))
        #expect(Self.refusal("[keys]\ndown = n\n") == "keys.toml line 2: not TOML: 'n' is not a value (text goes in quotes: \"n\")")
        #expect(Self.refusal("[[keys]]\n") == "keys.toml line 1: [[keys]] is a list of tables; bindings go under [keys]")
    }

    /// Whatever the bytes (issue 36: TOMLKit's C++ parser aborted on `[[[` and hung), a mistake
    /// is one short line naming the line, without a crash, in time linear in the file's length.
    @Test(arguments: [
        ("[[[", "keys.toml line 1: not TOML: expected a name, found '['"),
        ("[keys]\ndown = \"n\n", "keys.toml line 2: not TOML: a string is not closed by \" on its line"),
        ("[keys]\ndown = 'n\n", "keys.toml line 2: not TOML: a string is not closed by ' on its line"),
        ("[keys]\n\ndown = '''n\n\n", "keys.toml line 3: not TOML: the string opened on this line is not closed by '''"),
        ("[keys]\ndown = [\"n\",\n\"m\"\n", "keys.toml line 2: not TOML: the array opened on this line is not closed by ]"),
        ("[keys]\ndo\u{0}wn = \"n\"\n", "keys.toml line 2: not TOML: a control character (U+0000); TOML allows only tabs"),
        ("[keys]\rdown = \"n\"", "keys.toml line 1: not TOML: a carriage return not followed by a line feed"),
        ("[keys]\ndown = \"\\q\"\n", "keys.toml line 2: not TOML: \\q is not an escape TOML knows"),
        ("[keys]\ndown = \"\\uD800\"\n", "keys.toml line 2: not TOML: \\ud800 is not a character"),
        ("[" + String(repeating: "a.", count: 20_000) + "b]\n", "keys.toml line 1: 'a' is not a section of keys.toml; bindings go under [keys]"),
        ("[keys]\ndown = " + String(repeating: "[", count: 30_000), "keys.toml line 2: not TOML: arrays and tables nested more than 8 deep"),
        ("keys = " + String(repeating: "{ a = ", count: 10_000), "keys.toml line 1: not TOML: arrays and tables nested more than 8 deep"),
        ("[keys]\n\"\\u001B[2J\u{202E}x\" = \"n\"\n", "keys.toml line 2: no action is called '\\u{1b}[2J\\u{202e}x' (actions: down, up,"),
    ])
    func anyMalformedFileIsOneLineNamingTheLine(_ text: String, _ expected: String) {
        let refusal = Self.refusal(text)
        #expect(refusal.hasPrefix(expected), "\(refusal)")
        #expect(refusal.count < 1_000 && !refusal.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(refusal)")
    }

    @Test func bytesThatAreNoTextAndFilesTooLongAreRefusedByLine() {
        #expect(Self.refusal(bytes: Array("[keys]\n# caf".utf8) + [0xE9] + Array("\n".utf8)) == "keys.toml line 2: not UTF-8 text (TOML is UTF-8)")
        #expect(Self.refusal(bytes: [0x5B, 0xC0, 0xAF, 0x5D]) == "keys.toml line 1: not UTF-8 text (TOML is UTF-8)", "an overlong encoding")
        let long = Array(String(repeating: "# a comment\n", count: 10_000).utf8)
        #expect(Self.refusal(bytes: long) == "keys.toml line 5462: the file is longer than 65,536 bytes (64 KiB); a key bindings file is a few lines")
    }

    /// A name of 20,000 characters took 7.6 s to refuse and was echoed whole: refused by its
    /// length now, quoted cut short. (How long `reel ui` takes to refuse it, beside refusing a
    /// name a character long, is `reel-bench ui`'s row 6.)
    @Test func aLongNameIsRefusedByItsLengthQuotedCutShort() {
        let refusal = Self.refusal("[keys]\n" + String(repeating: "a", count: 20_000) + " = \"n\"\n")
        let forty = String(repeating: "a", count: 40)
        #expect(refusal == "keys.toml line 2: no action is called '\(forty)…': a name of 20,000 characters is longer than any action's (at most 20)")
        let value = Self.refusal("[keys]\ndown = \"" + String(repeating: "b", count: 20_000) + "\"\n")
        #expect(value.hasPrefix("keys.toml line 2: '\(String(repeating: "b", count: 40))…' is not a key") && value.count < 300, "\(value.prefix(300))")
    }
}

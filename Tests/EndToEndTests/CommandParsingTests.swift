import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Issue 19 ("The command line a newcomer enjoys") through the built binary: a mistyped command
/// at any level named with what was probably meant, negative ids judged as ids, shell completion
/// that completes files, directories, formats, genres and language tags, and help that lists only
/// the options a command uses and wraps as paragraphs.
@Suite struct CommandParsingTests {
    typealias Ledger = LedgerHome

    // MARK: Unknown commands

    @Test func aMistypedCommandAtAnyLevelNamesTheNearestOne() async throws {
        let ledger = Ledger()
        let cases: [([String], String)] = [
            (["moviez"], "unknown command 'moviez'; did you mean 'movies'?"),
            (["--json", "moviez"], "unknown command 'moviez'; did you mean 'movies'?"),
            (["fav", "ad", "movie", "550"], "unknown command 'fav ad'; did you mean 'fav add'?"),
            (["account", "exprot"], "unknown command 'account exprot'; did you mean 'account export'?"),
            (["settings", "nme", "Ann"], "unknown command 'settings nme'; did you mean 'settings name'?"),
            (["tmdb", "stauts"], "unknown command 'tmdb stauts'; did you mean 'tmdb status'?"),
            (["proj"], "unknown command 'proj'; did you mean 'projections'?"),
            (["acc"], "unknown command 'acc'; did you mean 'account' or 'accounts'?"),
            (["hlep"], "unknown command 'hlep'; did you mean 'help'?"),
        ]
        for (arguments, message) in cases {
            let out = try await ledger.reel(arguments)
            #expect(out.status == 64, "\(arguments): \(out.status) \(out.stderr)")
            #expect(out.stderr == "reel: \(message) (see 'reel help')\n", "\(arguments): \(out.stderr)")
            #expect(out.stdout.isEmpty, "\(arguments): \(out.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/ledger"), "a mistyped command wrote nothing")
    }

    @Test func nothingNearIsNoSuggestion() async throws {
        for word in ["xyzzy", "foo", "zz"] {
            try await Ledger().fails([word], status: 64, "unknown command '\(word)' (see 'reel help')")
        }
        try await Ledger().fails(["cache", "wipe"], status: 64, "unknown command 'cache wipe' (see 'reel help')")
    }

    @Test func onlyTheSubcommandsPlaceIsChecked() async throws {
        let ledger = Ledger()
        // A title to search for, not a command: the sample catalog has no such title (66).
        let title = try await ledger.reel(["fav", "add", "moviez"], user: "ann")
        #expect(title.status == 66 && !title.stderr.contains("unknown command"), "\(title.stderr)")
        let words = try await ledger.reel(["fav", "add", "movie", "fight", "club"], user: "ann")
        #expect(words.status == 0, "\(words.stderr)")
        // A command with a default subcommand still runs it, and still takes its options.
        #expect(try await ledger.reel(["settings"], user: "ann").status == 0)
        #expect(try await ledger.reel(["settings", "--json"], user: "ann").status == 0)
    }

    @Test func helpForACommandThatDoesNotExistIsAMistake() async throws {
        try await Ledger().fails(["help", "nonexist"], status: 64, "unknown command 'nonexist' (see 'reel help')")
        try await Ledger().fails(["help", "moviez"], status: 64, "unknown command 'moviez'; did you mean 'movies'?")
        try await Ledger().fails(["help", "fav", "ad"], status: 64, "unknown command 'fav ad'; did you mean 'fav add'?")
        for arguments in [["help", "movies"], ["help", "fav", "add"], ["help"]] {
            let out = try await Harness.reel(arguments)
            #expect(out.status == 0 && out.stdout.contains("USAGE: reel") && out.stderr.isEmpty, "\(arguments): \(out.stderr)")
        }
        #expect(try await Harness.reel(["help", "movies"]).stdout.contains("USAGE: reel movies"))
    }

    // MARK: Negative numbers

    @Test func negativeAndZeroIdsAreRefusedAsIds() async throws {
        let ledger = Ledger()
        for arguments in [
            ["show", "movie", "-5"], ["show", "movie", "-5", "--similar"], ["fav", "add", "movie", "-5"],
            ["fav", "add", "movie", "550", "-3"], ["fav", "remove", "series", "-1399"],
        ] {
            let id = arguments.first { $0.hasPrefix("-") && $0 != "--similar" }!
            try await ledger.fails(arguments, user: "ann", status: 64, "'\(id)' is not a TMDb id (a positive whole number")
        }
        try await ledger.fails(["show", "movie", "0"], user: "ann", status: 64, "'0' is not a TMDb id")
        try await ledger.fails(["fav", "add", "movie", "0"], user: "ann", status: 64, "'0' is not a TMDb id")
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/ledger"), "nothing was saved")
    }

    @Test func aNegativeNumberAfterAnOptionIsItsValue() async throws {
        let ledger = Ledger()
        try await ledger.fails(["movies", "--page", "-3"], status: 64, "--page takes 1 to 500")
        try await ledger.fails(["movies", "--year", "-5"], status: 64, "--year takes a year")
        try await ledger.fails(["fav", "add", "movie", "-5", "--year", "-3"], user: "ann", status: 64, "--year -3 is not a year")
        // A negative number where a search's words go is a word, in its place.
        let search = try await ledger.reel(["search", "-1"])
        #expect(search.status == 0 && search.stdout.contains("'-1'"), "\(search.stdout)\(search.stderr)")
        let real = try await ledger.reel(["show", "movie", "550", "--similar"], user: "ann")
        #expect(real.status == 0, "options still parse: \(real.stderr)")
    }

    // MARK: Completion

    @Test func completionScriptsCompleteFilesDirectoriesAndValues() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let out = try await Harness.reel(["--generate-completion-script", shell])
            #expect(out.status == 0 && out.stderr.isEmpty, "\(shell): \(out.stderr)")
            #expect(out.stdout.contains("---completion settings language -- positional@0"), "\(shell): language tags")
            #expect(out.stdout.contains("---completion movies -- --genre"), "\(shell): movie genres")
            #expect(out.stdout.contains("---completion series -- --genre"), "\(shell): series genres")
        }
        let zsh = try await Harness.reel(["--generate-completion-script", "zsh"]).stdout
        #expect(zsh.contains("--data-dir[Where the ledger lives (env REEL_DATA_DIR; default $XDG_DATA_HOME/reel).]:dir:_files -/"))
        #expect(zsh.contains("local -ar ___format=('reel' 'letterboxd' 'imdb' 'trakt')"), "zsh: import formats")
        #expect(zsh.contains(#"':path:_files -g '\''*.jpg *.jpeg *.png *.JPG *.JPEG *.PNG'\'''"#), "zsh: photo files")
        let fish = try await Harness.reel(["--generate-completion-script", "fish"]).stdout
        #expect(fish.contains(#"__reel_should_offer_completions_for_positional "reel account import" -eq 1' -F"#), "fish: import files")
        #expect(fish.contains(#""reel backup" -eq 1' -fa '(__reel_complete_directories)'"#), "fish: backup directory")
    }

    /// Real bash, the generated script sourced, Tab pressed on a command line: what it offers.
    static func bashCompletions(_ line: String, in directory: String) async throws -> [String] {
        let script = try await Harness.reel(["--generate-completion-script", "bash"]).stdout
        let scriptFile = directory + "/reel.bash"
        try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        let driver = """
            source "$1"; cd "$2"
            COMP_LINE="$3"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
            _reel reel "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let path = Harness.binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let out = try await Harness.run("bash", ["-c", driver, "bash", scriptFile, directory, line], environment: ["PATH": path])
        #expect(out.status == 0, "\(line): \(out.stderr)")
        return out.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesWhatEachPlaceTakes() async throws {
        let dir = temporaryDirectory("completion")
        try FileManager.default.createDirectory(atPath: dir + "/pics/old", withIntermediateDirectories: true)
        for file in ["a.jpg", "b.PNG", "c.png", "notes.txt"] {
            _ = FileManager.default.createFile(atPath: dir + "/pics/" + file, contents: Data())
        }
        await #expect(try Self.bashCompletions("reel settings photo pics/", in: dir) == ["pics/a.jpg", "pics/b.PNG", "pics/c.png", "pics/old"])
        await #expect(try Self.bashCompletions("reel account import pics/n", in: dir) == ["pics/notes.txt"])
        await #expect(try Self.bashCompletions("reel backup pics/", in: dir) == ["pics/old"])
        await #expect(try Self.bashCompletions("reel saved --data-dir pics/", in: dir) == ["pics/old"])
        await #expect(try Self.bashCompletions("reel account export --format ", in: dir) == ["letterboxd", "reel"])
        await #expect(try Self.bashCompletions("reel account import x --format ", in: dir) == ["imdb", "letterboxd", "reel", "trakt"])
        await #expect(try Self.bashCompletions("reel series --genre Sc", in: dir) == ["Sci-Fi & Fantasy"])
        await #expect(try Self.bashCompletions("reel movies --genre Sc", in: dir) == ["Science Fiction"])
        await #expect(try Self.bashCompletions("reel saved --genre Sc", in: dir) == ["Sci-Fi & Fantasy", "Science Fiction"])
        await #expect(try Self.bashCompletions("reel settings language pt-B", in: dir).contains("pt-BR"))
        await #expect(try Self.bashCompletions("reel mov", in: dir) == ["movies"])
    }

    @Test func theCustomCompletionsAnswerFromWhatReelShipsAndTouchNothing() async throws {
        let dir = temporaryDirectory("completion") + "/none"
        let env = ["REEL_DATA_DIR": dir, "TMDB_API_TOKEN": "", "TMDB_API_KEY": ""]
        func complete(_ arguments: [String]) async throws -> [String] {
            let out = try await Harness.reel(["---completion"] + arguments, environment: env)
            #expect(out.status == 0 && out.stderr.isEmpty, "\(arguments): \(out.stderr)")
            return out.stdout.split(separator: "\n").map(String.init)
        }
        let movies = try await complete(["movies", "--", "--genre", "3", "0", "reel", "movies", "--genre", ""])
        #expect(movies.contains("Science Fiction") && movies.contains("Drama") && !movies.contains("Kids"), "\(movies)")
        let series = try await complete(["series", "--", "--genre", "3", "1", "reel", "series", "--genre", "k"])
        #expect(series == ["Kids"], "\(series)")
        let tags = try await complete(["settings", "language", "--", "positional@0", "3", "2", "reel", "settings", "language", "pt"])
        #expect(tags.contains("pt") && tags.contains("pt-BR") && tags.contains("pt-PT") && !tags.contains("de"), "\(tags)")
        let all = try await complete(["settings", "language", "--", "positional@0", "3", "0", "reel", "settings", "language", ""])
        #expect(all.contains("en") && all.contains("de") && all.contains("fa") && !all.contains("xx"), "\(all.count) tags")
        #expect(!FileManager.default.fileExists(atPath: dir), "completion made no data directory")
    }

    // MARK: Help

    static func options(_ command: [String]) async throws -> String {
        let out = try await Harness.reel(command + ["--help"])
        #expect(out.status == 0, "\(command): \(out.stderr)")
        return String(out.stdout[(out.stdout.range(of: "OPTIONS:")?.upperBound ?? out.stdout.endIndex)...])
    }

    @Test func helpListsUserAndOfflineOnlyWhereTheyMeanSomething() async throws {
        let expected: [([String], user: Bool, offline: Bool)] = [
            (["fav", "add"], true, true), (["saved"], true, true), (["movies"], true, true), (["account", "export"], true, true),
            (["settings", "name"], true, false), (["settings", "show"], true, false), (["about"], true, false),
            (["account", "delete"], true, false),
            (["tmdb", "status"], false, true), (["tmdb", "login"], false, false), (["demo"], false, true),
            (["backup"], false, false), (["tmdb", "logout"], false, false), (["cache", "stats"], false, false),
            (["accounts"], false, false), (["audit", "verify"], false, false), (["projections", "rebuild"], false, false),
        ]
        for (command, user, offline) in expected {
            let options = try await Self.options(command)
            #expect(options.contains("--user <handle>") == user, "\(command) --user: \(options)")
            #expect(options.contains("--offline") == offline, "\(command) --offline: \(options)")
            // The credential commands keep Reel's credentials file, not the data directory.
            let dataDirectory = command != ["tmdb", "login"] && command != ["tmdb", "logout"]
            #expect(options.contains("--data-dir <dir>") == dataDirectory && options.contains("--json"), "\(command): \(options)")
        }
    }

    @Test func hiddenGlobalOptionsAreStillTakenBeforeAndAfterTheCommand() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        for (index, arguments) in [["--offline", "--user", "ann", "backup"], ["backup", "--offline", "--user", "ann"]].enumerated() {
            let target = temporaryDirectory("backup") + "/copy\(index)"
            let out = try await ledger.reel(arguments + [target])
            #expect(out.status == 0, "\(arguments): \(out.stderr)")
        }
        #expect(try await ledger.reel(["--offline", "settings", "name", "Ann"], user: "ann").status == 0)
        #expect(try await ledger.reel(["tmdb", "status", "--user", "ann"]).status == 0)
        try await ledger.fails(["--user", "Not A Handle", "backup", temporaryDirectory("backup") + "/x"], status: 64, "is not an account handle")
    }

    @Test func demoHelpNamesTheDirectoryItReallyUses() async throws {
        let options = try await Self.options(["demo"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(options.contains("a new reel-demo-… directory in $TMPDIR") && !options.contains("$XDG_DATA_HOME"), "\(options)")
    }

    /// Lines of the overview and discussion at 80 columns: within a paragraph every line but the
    /// last is filled, so a hard line break in the source shows as a short line.
    @Test func helpTextWrapsAsParagraphs() async throws {
        for command in [["tmdb"], ["account", "export"], ["account", "import"], ["fav", "add"], ["saved"], ["movies"], ["demo"]] {
            let out = try await Harness.reel(command + ["--help"], environment: ["COLUMNS": "80"])
            let prose = out.stdout.components(separatedBy: "\nUSAGE:")[0]
            for paragraph in prose.components(separatedBy: "\n\n") {
                let lines = paragraph.split(separator: "\n")
                for line in lines.dropLast() {
                    #expect(line.count >= 60 && line.count <= 80, "\(command): a broken wrap at \"\(line)\" in\n\(prose)")
                }
            }
        }
    }

    @Test func helpListsUserWhereTheCommandTakesIt() async throws {
        let create = try await Self.options(["token", "create"])
        #expect(create.contains("--user <handle>") && create.contains("--data-dir <dir>") && create.contains("--json"), "\(create)")
        let list = try await Self.options(["token", "list"])
        let words = list.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(list.contains("--user <handle>") && words.contains("default: every account's; REEL_USER is not read"), "\(list)")
        let revoke = try await Self.options(["token", "revoke"])
        #expect(!revoke.contains("--user <handle>") && revoke.contains("--data-dir <dir>"), "\(revoke)")
        #expect(!create.contains("--offline") && !list.contains("--offline") && !revoke.contains("--offline"))
        let typo = try await Harness.reel(["token", "revok", "0123456789ab"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'token revoke'"), "\(typo.stderr)")
        try await Ledger().fails(["token", "create", "--user", "Not A Handle"], status: 64, "is not an account handle")
    }
}

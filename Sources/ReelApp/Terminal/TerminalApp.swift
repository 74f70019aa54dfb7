import CNcursesW
import Foundation
import Glibc
public import Reel
import TerminalGraphics

/// The terminal app (`reel ui`): owns the terminal for as long as it runs, on a thread of its
/// own that waits in `poll` for keys, effects' results and signals; runs effects on tasks, so
/// the screen never waits on the network; restores the terminal on every way out. Before curses
/// takes the terminal it is asked what pictures it shows (`TerminalProbe`, at most 150 ms; not
/// with `REEL_IMAGES=none`).
public enum TerminalApp {
    /// What the front end parsed: where the data is, whose account, whether to stay offline.
    public struct Options: Sendable {
        public var dataDirectory: String
        public var handle: AccountHandle
        public var offline: Bool
        public var environment: [String: String]
        /// The store (`--store`): a PostgreSQL URL or a shard map; `nil` for `REEL_STORE`, else LMDB.
        public var store: String?

        public init(dataDirectory: String, handle: AccountHandle, offline: Bool, environment: [String: String], store: String? = nil) {
            self.dataDirectory = dataDirectory
            self.handle = handle
            self.offline = offline
            self.environment = environment
            self.store = store
        }
    }

    /// True when standard input and output are terminals: `reel` alone opens the app only then.
    public static var canRun: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Runs the app until `q`, ctrl-c or a signal, over the application `open` makes for its
    /// configuration (the composition root's: over the stores the configuration names); throws
    /// when it cannot start.
    public static func run(_ options: Options, open: (Application.Configuration) -> Application) async throws {
        guard canRun else { throw TerminalAppError.notATerminal }
        // Before the screen is taken: a mistake in keys.toml is one line on stderr.
        let keys = try KeyBindingsFile.load(KeyBindingsFile.path(environment: options.environment))
        let inbox = try Inbox()
        // Notes go to the status line: stderr is the screen now. Routine ones (the sample catalog
        // is in use) the status line says already.
        let application = open(
            Application.Configuration(
                dataDirectory: options.dataDirectory, store: options.store, offline: options.offline, environment: options.environment,
                notice: { notice in if notice.routine == nil { inbox.post(.notice(notice.text)) } }))
        // Asked before curses owns the terminal: its answers come in on the input curses reads.
        let graphics = TerminalProbe.capabilities(input: STDIN_FILENO, output: STDOUT_FILENO, environment: options.environment)
        AppLog.start(environment: options.environment)
        let runner = EffectRunner(
            application: application, account: CurrentAccount(options.handle), clock: LocalClock(), pictures: PictureMaker(capabilities: graphics),
            post: { inbox.post($0) })
        let colors = (options.environment["NO_COLOR"] ?? "").isEmpty
        let hyperlinks = Hyperlinks.supported(environment: options.environment)
        let trace = FrameTrace(options.environment)
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<TerminalAppError?, Never>) in
            let thread = Thread {
                do throws(TerminalAppError) {
                    try loop(inbox: inbox, runner: runner, account: options.handle.value, screen: (colors, hyperlinks), keys: keys, trace: trace)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
            thread.name = "reel-ui"
            thread.start()
        }
        await application.close()
        trace?.close()
        if let failure { throw failure }
    }

    /// The loop: keys and results in, `AppUpdate` for the next model, `AppView` to the screen
    /// (and a line to `trace` per turn that read keys or drew, for the benchmark).
    private static func loop(
        inbox: Inbox, runner: EffectRunner, account: String, screen options: (colors: Bool, hyperlinks: Bool), keys: KeyBindings,
        trace: FrameTrace?
    ) throws(TerminalAppError) {
        let graphics = runner.pictures.capabilities
        let screen = try CursesScreen(colors: options.colors, hyperlinks: options.hyperlinks, graphics: graphics)
        defer { screen.close() }
        screen.unread(TerminalProbe.takeTypedAhead())
        reel_catch_signals(inbox.writeEnd)
        reel_catch_winch()
        defer { reel_catch_signals(-1) }
        // The account's changes are followed by one task at a time (`SavedEffect.watch`), ended
        // with the loop.
        var watching: Task<Void, Never>?
        defer { watching?.cancel() }
        func launch(_ effects: [AppEffect]) {
            for effect in effects {
                if effect == .saved(.watch) {
                    watching?.cancel()
                    watching = Task { await runner.watch { inbox.post($0) } }
                } else {
                    Task { if let message = await runner.run(effect) { inbox.post(message) } }
                }
            }
        }
        let size = screen.size
        var first = AppModel(width: size.width, height: size.height, account: account, keys: keys)
        first.pictures = PictureState(
            available: graphics.mode != .none, reason: graphics.reason, drawsPixels: [.kitty, .iterm, .sixel].contains(graphics.mode))
        var (model, effects) = AppUpdate.start(first)
        launch(effects)
        let started = FrameTrace.now()
        screen.show(AppView.draw(model))
        trace?.record(keys: 0, messages: 0, drawn: true, read: started, model: model)
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.readEnd, events: Int16(POLLIN), revents: 0)]
        while !model.quitting {
            _ = poll(&descriptors, 2, 1000)
            let woken = trace == nil ? 0 : FrameTrace.now()
            let (posted, signalled) = inbox.drain()
            screen.followTerminalSize()
            var messages: [AppMessage] = screen.events().map { event in
                switch event {
                case .key(let key): .key(key)
                case .resized: .resized(width: screen.size.width, height: screen.size.height)
                }
            }
            let keys = messages.count(where: { if case .key = $0 { true } else { false } })
            if screen.size != (model.width, model.height) { messages.append(.resized(width: screen.size.width, height: screen.size.height)) }
            messages += posted
            if signalled { messages.append(.interrupted) }
            let before = model
            // All that came in at once, as one batch: a paste is thousands of keys.
            (model, effects) = AppUpdate.update(model, messages)
            launch(effects)
            let drawn = model != before && !model.quitting
            if drawn { screen.show(AppView.draw(model)) }
            trace?.record(keys: keys, messages: messages.count, drawn: drawn, read: woken, model: model)
        }
    }
}

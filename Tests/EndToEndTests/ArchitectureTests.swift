import EndToEndSupport
import Foundation
import Testing

/// The architecture the handbook draws holds in the sources: the module graph in its Architecture
/// article (`Sources/Reel/Reel.docc/Architecture.md`) is the one the `import` lines make, the
/// command-line face imports the application core alone, and its commands only parse, call the
/// core and render (no `run()` body over 25 lines).
@Suite struct ArchitectureTests {
    @Test func theHandbooksModuleGraphIsTheOneTheImportsMake() async throws {
        let out = try await Harness.python("module_graph.py", ["--check", Harness.root + "/Sources/Reel/Reel.docc/Architecture.md"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    static let system: Set<String> = ["Foundation", "Glibc", "Synchronization", "Dispatch"]

    /// The command line imports the core, `Stores` (the stores a configuration names, opened
    /// outside the core, and the operators' use cases on them), the terminal app and the service
    /// (faces of their own, which `reel ui` and `reel serve` hand over to), ArgumentParser, and
    /// TerminalGraphics and Presentation (pictures and text drawn on the terminal, a face's
    /// rendering like its tables), and ReportJSON (the one JSON form of each report, the
    /// service's too).
    @Test func theCommandLineImportsOnlyTheCoreTheTerminalAppAndArgumentParser() async throws {
        for (file, text) in try Self.sources("ReelCLI") {
            for module in Self.imports(text) {
                #expect(
                    ["Reel", "Stores", "ReportJSON", "Presentation", "ReelApp", "ReelService", "ArgumentParser", "TerminalGraphics"].contains(module) || Self.system.contains(module),
                    "\(file) imports \(module)")
            }
        }
    }

    /// The terminal app is a front end: the core, ncursesw, TerminalGraphics (pictures),
    /// Presentation (display width, terminal-safe text) and Processes (a browser started for a
    /// trailer), nothing below the core (`keys.toml` is read in Swift, `KeysFileParser`).
    @Test func theTerminalAppImportsOnlyTheCoreAndNcurses() async throws {
        for (file, text) in try Self.sources("ReelApp") {
            for module in Self.imports(text) {
                #expect(
                    ["Reel", "Presentation", "CNcursesW", "TerminalGraphics", "Processes"].contains(module) || Self.system.contains(module),
                    "\(file) imports \(module)")
            }
        }
    }

    /// The service is a front end: the core (and `Stores`, for the operators' routes over every
    /// shard), ReportJSON (the one JSON form of each report, `--json`'s too) and the HTTP stack; never `Presentation` (it formats nothing for a terminal: a
    /// problem's words are made one safe line by `SafeText`, as every face's are) (Hummingbird, its types, NIO for the slow-client guard, TLS),
    /// logs, metrics and lifecycle; nothing below the core.
    @Test func theServiceImportsOnlyTheCoreAndItsHTTPStack() async throws {
        let http: Set<String> = [
            "Hummingbird", "HummingbirdCore", "HummingbirdTLS", "HTTPTypes", "NIOCore", "NIOHTTPTypes", "NIOSSL", "Logging", "Metrics",
            "Prometheus", "ServiceLifecycle", "UnixSignals", "Crypto",
        ]
        for (file, text) in try Self.sources("ReelService") {
            for module in Self.imports(text) {
                #expect(["Reel", "Stores", "ReportJSON"].contains(module) || http.contains(module) || Self.system.contains(module), "\(file) imports \(module)")
            }
        }
    }

    /// Stores are chosen outside the core: no file of the application core names a store's
    /// module, and above the store boundary only `Stores` opens one (the LMDB store, PostgreSQL:
    /// `StoreRouter`), so a
    /// third store is a change there, not in the use cases.
    @Test func onlyStoresNamesAStoreAboveTheStoreBoundary() async throws {
        for folder in ["Reel", "ReelApp", "ReelService", "ReelCLI"] {
            for (file, text) in try Self.sources(folder) {
                for module in Self.imports(text) {
                    #expect(module != "PostgresStore", "\(folder)/\(file) imports PostgresStore")
                    #expect(module != "LMDBStore", "\(folder)/\(file) imports LMDBStore")
                    #expect(folder != "Reel" || module != "Stores", "\(folder)/\(file) imports Stores")
                }
            }
        }
        let stores = try Self.sources("Stores").map { Set(Self.imports($0.1)) }.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(stores.contains("PostgresStore"), "the Stores module opens PostgreSQL")
        #expect(stores.contains("LMDBStore"), "the Stores module opens the LMDB store")
    }

    /// What a store lends the code above it (a replayed event, a projection table's rows, a
    /// sealed blob) is lent as a `RawSpan` that cannot outlive the call: no public requirement or
    /// member of the boundary names a raw pointer (the stores' own helpers are `package` or
    /// `@_spi(Stores)`).
    @Test func noPointerIntoAStoreCrossesTheStoreBoundary() async throws {
        let boundary = try Self.sources("EventLog").filter { $0.0.hasPrefix("Store/") || $0.0 == "Events/EventView.swift" }
        #expect(boundary.count >= 5, "the boundary's files are found")
        for (file, text) in boundary {
            var inProtocol = false
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("public protocol ") { inProtocol = true } else if line.hasPrefix("}") { inProtocol = false }
                let exposed = (line.contains("public ") && !line.contains("@_spi")) || (inProtocol && line.contains(" func "))
                #expect(!(exposed && line.contains("Unsafe")), "EventLog/\(file):\(index + 1) lends a pointer: \(line)")
            }
        }
    }

    /// The modules a Swift file imports (a whole line of Swift's import syntax: the JavaScript
    /// the web app's embedded files hold in string literals is not Swift).
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").filter {
            $0.range(of: #"^\s*(@\w+(\([^)]*\))? +)*(public |internal |package )?import ((struct|class|enum|protocol|func|var|let|typealias) )?[A-Za-z_][\w.]*\s*$"#, options: .regularExpression) != nil
        }.map {
            String($0.split(separator: " ").last!)
        }
    }

    @Test func everyCommandsRunIsShort() async throws {
        for (file, text) in try Self.commandLineSources() {
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.range(of: #"^\s*(mutating )?func run\(\)"#, options: .regularExpression) != nil {
                let indent = line.prefix { $0 == " " }.count
                let end = lines[(index + 1)...].firstIndex { $0.hasPrefix(String(repeating: " ", count: indent) + "}") } ?? lines.count
                #expect(end - index - 1 <= 25, "\(file):\(index + 1): run() has \(end - index - 1) lines")
            }
        }
    }

    static func commandLineSources() throws -> [(String, String)] { try sources("ReelCLI") }

    /// Every Swift file below `Sources/FOLDER`, by its path there.
    static func sources(_ folder: String) throws -> [(String, String)] {
        let directory = Harness.root + "/Sources/" + folder
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.sorted().map { ($0, try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) }
    }
}

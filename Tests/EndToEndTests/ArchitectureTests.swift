import Foundation
import Testing

/// The architecture the README draws holds in the sources: the module graph in its Architecture
/// section is the one the `import` lines make, the command-line face imports the application core
/// alone, and its commands only parse, call the core and render (no `run()` body over 25 lines).
@Suite struct ArchitectureTests {
    @Test func theReadmesModuleGraphIsTheOneTheImportsMake() throws {
        let out = try Harness.python("module_graph.py", ["--check", Harness.root + "/README.md"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test func theCommandLineImportsOnlyTheCoreAndArgumentParser() throws {
        let system: Set<String> = ["Foundation", "Glibc", "Synchronization", "Dispatch"]
        for (file, text) in try Self.commandLineSources() {
            for line in text.split(separator: "\n") where line.range(of: #"^\s*(public |internal )?import "#, options: .regularExpression) != nil {
                let module = String(line.split(separator: " ").last!)
                #expect(module == "Reel" || module == "ArgumentParser" || system.contains(module), "\(file) imports \(module)")
            }
        }
    }

    @Test func everyCommandsRunIsShort() throws {
        for (file, text) in try Self.commandLineSources() {
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.range(of: #"^\s*(mutating )?func run\(\)"#, options: .regularExpression) != nil {
                let indent = line.prefix { $0 == " " }.count
                let end = lines[(index + 1)...].firstIndex { $0.hasPrefix(String(repeating: " ", count: indent) + "}") } ?? lines.count
                #expect(end - index - 1 <= 25, "\(file):\(index + 1): run() has \(end - index - 1) lines")
            }
        }
    }

    static func commandLineSources() throws -> [(String, String)] {
        let directory = Harness.root + "/Sources/ReelCLI"
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: directory + "/" + $0, encoding: .utf8))
        }
    }
}

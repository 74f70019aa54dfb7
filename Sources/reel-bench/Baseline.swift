import Foundation

/// The C baseline (`Tools/baseline_bench.c`: raw LMDB and SQLite), compiled with `cc` for this run.
struct Baseline {
    let executable: String

    static func compile(into directory: String) throws -> Baseline {
        let candidates = [
            FileManager.default.currentDirectoryPath + "/Tools/baseline_bench.c",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tools/baseline_bench.c").standardized.path,
        ]
        guard let source = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
            throw BenchmarkError("Tools/baseline_bench.c not found: run reel-bench from the repository's root")
        }
        let executable = directory + "/baseline_bench"
        let cc = Spawn.captured("/usr/bin/env", ["cc", "-O2", "-o", executable, source, "-llmdb", "-lsqlite3", "-lpthread"])
        guard cc.status == 0 else {
            throw BenchmarkError("compiling the C baseline failed (needs cc, liblmdb-dev, libsqlite3-dev): \(cc.stderr)")
        }
        return Baseline(executable: executable)
    }

    func run(_ arguments: [String]) throws -> JSONFigures {
        let out = Spawn.captured(executable, arguments)
        guard out.status == 0 else { throw BenchmarkError("baseline \(arguments[0]) failed: \(out.stderr)") }
        return try JSONFigures(out.stdout)
    }
}

/// One JSON line of figures printed by a child process.
struct JSONFigures {
    let values: [String: Any]
    init(_ text: String) throws {
        guard let line = text.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchmarkError("unreadable figures: \(text)")
        }
        values = object
    }
    func number(_ key: String) -> Double { (values[key] as? NSNumber)?.doubleValue ?? .nan }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}


import ArgumentParser

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the benchmarks and print a table.")
    func run() async throws {}
}

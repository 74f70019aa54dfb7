import ArgumentParser

@main
struct ReelBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-bench",
        abstract: "Benchmarks for Reel's event log, and an appender process for multi-process tests.",
        subcommands: [
            Run.self, LedgerBench.self, AccountBench.self, CommandBench.self, CatalogBench.self, SavedBench.self, UIBench.self, ImageBench.self,
            PosterBench.self, OMDbBench.self, ServeBench.self, WebBench.self, KeysRace.self, StoreBench.self, MoveBench.self, FailoverBench.self, Worker.self, Measure.self, DamageProbe.self,
        ],
        defaultSubcommand: Run.self
    )
}

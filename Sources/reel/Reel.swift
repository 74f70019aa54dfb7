import ArgumentParser

@main
struct Reel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "An event-sourced ledger of your movie and series favorites.",
        version: "0.1.0",
        subcommands: [Demo.self, Audit.self, Backup.self]
    )
}

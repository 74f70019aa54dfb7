import ArgumentParser
import Reel

/// `reel accounts`: every account in the ledger.
struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accounts", abstract: "List the accounts with their event counts.")

    @OptionGroup var global: LedgerOptions

    func run() async throws {
        try await global.withApplication { app in
            let accounts = try app.accounts()
            try global.json ? printJSON(json(accounts)) : render(accounts)
        }
    }

    private func json(_ accounts: [AccountSummary]) -> JSONValue {
        [
            "accounts": .array(
                accounts.map { a in
                    [
                        "handle": a.handle.map { .string($0.value) } ?? .null, "stream": .string(a.stream.rawValue),
                        "status": .string(a.status.rawValue), "events": .integer(Int64(a.events)),
                        "saved": .integer(Int64(a.saved)), "openedAt": JSONForm.time(a.openedAt),
                        "deletedAt": JSONForm.time(a.deletedAt),
                    ]
                })
        ]
    }

    private func render(_ accounts: [AccountSummary]) {
        guard !accounts.isEmpty else {
            Console.line("no accounts")
            return
        }
        let anyDeleted = accounts.contains { $0.status == .deleted }
        var table = TextTable(
            ["HANDLE", "STATUS", "EVENTS", "SAVED", "OPENED (UTC)"] + (anyDeleted ? ["DELETED (UTC)"] : []) + ["STREAM"],
            alignments: [.left, .left, .right, .right, .left] + (anyDeleted ? [.left] : []) + [.left])
        for a in accounts {
            table.add(
                [
                    a.handle?.value ?? (a.status == .deleted ? "(deleted)" : "(unknown)"), a.status.rawValue, "\(a.events)", "\(a.saved)",
                    a.openedAt.map(Timestamp.short) ?? "-",
                ] + (anyDeleted ? [a.deletedAt.map(Timestamp.short) ?? "-"] : []) + [a.stream.rawValue])
        }
        if anyDeleted { Console.line(Terminal.dim("deleted accounts are shown without their handles, which are kept only as digests")) }
        Console.line(table.render())
    }
}

import ArgumentParser
import Presentation
import Reel
import ReportJSON

/// `reel accounts`: every account in the ledger.
struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accounts", abstract: "List the accounts with their event counts.")

    @OptionGroup var global: TimedLedgerOptions

    func run() async throws {
        try await global.withApplication { app in
            let accounts = try app.accounts()
            try global.json ? printJSON(ReportJSON.accounts(accounts)) : render(accounts)
        }
    }

    private func render(_ accounts: [AccountSummary]) {
        guard !accounts.isEmpty else {
            Console.line("no accounts yet: \(FirstRun.hint)")
            return
        }
        let anyDeleted = accounts.contains { $0.status == .deleted }
        var table = TextTable(
            ["HANDLE", "STATUS", "EVENTS", "SAVED", "OPENED (\(Timestamp.zone(of: accounts.compactMap(\.openedAt))))"]
                + (anyDeleted ? ["DELETED (\(Timestamp.zone(of: accounts.compactMap(\.deletedAt))))"] : []) + ["STREAM"],
            alignments: [.left, .left, .right, .right, .left] + (anyDeleted ? [.left] : []) + [.left])
        for a in accounts {
            table.add(
                [
                    a.handle?.value ?? (a.status == .deleted ? "(deleted)" : a.status == .moved ? "(moved)" : "(unknown)"), a.status.rawValue, "\(a.events)", "\(a.saved)",
                    a.openedAt.map(Timestamp.short) ?? "-",
                ] + (anyDeleted ? [a.deletedAt.map(Timestamp.short) ?? "-"] : []) + [a.stream.rawValue])
        }
        if anyDeleted { Console.line(Terminal.dim(Terminal.fit("deleted accounts are shown without their handles, which are kept only as digests"))) }
        Console.line(Self.fitted(table, anyDeleted: anyDeleted))
    }

    /// The table in the terminal's width: columns are left out first, so a handle (what `--user`
    /// takes) stays whole where it can; only when that is not enough is the handle cut, and then,
    /// with a deleted account, the stream (its only name).
    private static func fitted(_ table: TextTable, anyDeleted: Bool) -> String {
        let width = Terminal.width
        let dropping = table.render(width: width, droppable: droppable(anyDeleted: anyDeleted))
        guard dropping.split(separator: "\n").contains(where: { DisplayWidth.columns(Terminal.unpainted(String($0))) > width }) else {
            return dropping
        }
        let stream = table.headers.count - 1
        let flexible: [TextTable.Flexible] = [.init(0, minimum: 9)] + (anyDeleted ? [.init(stream, minimum: 12)] : [])
        return table.render(width: width, flexible: flexible, droppable: droppable(anyDeleted: anyDeleted), droppingFirst: true)
    }

    /// The columns left out at narrow widths, first to last. The stream is an internal name, the
    /// first to go, except that a deleted account has no other: then it stays, whole, and the
    /// counts and times go (`--json` has them all).
    private static func droppable(anyDeleted: Bool) -> [Int] {
        // HANDLE 0, STATUS 1, EVENTS 2, SAVED 3, OPENED 4, then DELETED 5 when shown, then STREAM.
        anyDeleted ? [4, 5, 3, 2, 1] : [5, 4, 3, 2]
    }
}

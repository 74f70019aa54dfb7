import Reel
import ArgumentParser

/// `reel account delete|export|verify-export|import`: accounts leave and move.
struct Account: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Delete an account for good, export it, check an export, or import one.",
        subcommands: [AccountDelete.self, AccountExportCommand.self, AccountVerifyExport.self, AccountImport.self]
    )
}

import ArgumentParser
import Foundation
import Reel
import ReportJSON

/// `reel token create|list|revoke`: the account tokens of the HTTP service (`reel serve`).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make, list and revoke the account tokens of the HTTP service.",
        discussion: """
            A token lets an app act for one account through 'reel serve' (sent as 'Authorization: \
            Bearer reel_…'). Its secret (256 random bits) is printed once, when it is made, and kept \
            nowhere: the data directory holds only its SHA-256 digest (in tokens/). Revoked tokens \
            stay listed; deleting an account removes its tokens.
            """,
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a token for the account (opened if new) and print its secret, once.",
            discussion: """
                The secret is the only line on stdout; a note on stderr says it is not shown again. \
                With --link: a one-time sign-in link for a browser instead, valid for 15 minutes: \
                opening it signs the browser in to the web app of 'reel serve' (a session cookie, \
                listed and revoked with the tokens).
                """)

        @OptionGroup var global: AccountOptions
        @Flag(help: "Print a one-time sign-in link for the web app (valid 15 minutes) instead of a bearer token.") var link = false
        @Option(
            help: ArgumentHelp(
                "The address 'reel serve' is reached at, for --link (env REEL_SERVE_URL; default http://127.0.0.1:8080).", valueName: "url"))
        var url: String?

        func validate() throws {
            if url != nil && !link { throw ValidationError("--url names where the sign-in link points: give it with --link") }
        }

        func run() async throws {
            let base = link ? try SignInLink.base(url ?? ProcessInfo.processInfo.environment["REEL_SERVE_URL"]) : ""
            try await global.withApplication { app in
                let issued = try app.createToken(for: try global.handle(), kind: link ? .link : .token)
                let id = issued.token.id
                let what = link ? "sign-in link" : "token"
                Console.changed("\(what) \(id) was made, but its secret is lost with the output: revoke it with 'reel token revoke \(id)'")
                let printed = link ? SignInLink.address(base: base, secret: issued.secret) : issued.secret
                if global.json {
                    let json = ReportJSON.token(issued.token).objectValue ?? [:]
                    try printJSON(
                        json.filter { $0.key != "revokedAt" }.merging(["token": .string(issued.secret), "link": link ? .string(printed) : .null]) { $1 })
                } else {
                    Console.write(Array((printed + "\n").utf8))
                }
                let opened = issued.openedAccount ? ", opened now" : ""
                if link {
                    Terminal.notice(
                        "open this link once, within 15 minutes, to sign a browser in as '\(issued.token.handle)'\(opened) (id \(id)); it is shown only once")
                } else {
                    Terminal.notice("this token is shown only once: keep it now (id \(id), account '\(issued.token.handle)'\(opened))")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the tokens, every account's or one's (--user), revoked ones too; never a secret.")

        @OptionGroup var global: CommandOptions<PrintingTimes<TokenListing>>

        func run() async throws {
            try await global.withApplication { app in
                let handle = try global.user.map { try AccountHandle($0) }
                let tokens = try app.tokens(of: handle)
                try global.json ? printJSON(ReportJSON.tokens(tokens)) : render(tokens, of: handle)
            }
        }

        private func render(_ tokens: [AccessToken], of handle: AccountHandle?) {
            guard !tokens.isEmpty else {
                Console.line(handle.map { "no tokens for '\($0)'" } ?? "no tokens yet: 'reel token create --user HANDLE' makes one")
                return
            }
            var table = TextTable([
                "ID", "KIND", "USER", "CREATED (\(Timestamp.zone(of: tokens.map(\.createdAt))))",
                "REVOKED (\(Timestamp.zone(of: tokens.compactMap(\.revokedAt))))",
            ])
            for token in tokens {
                table.add([token.id, token.kind.rawValue, token.handle.value, Timestamp.short(token.createdAt), token.revokedAt.map(Timestamp.short) ?? "-"])
            }
            Console.line(table.render(width: Terminal.width, droppable: [4, 3, 1]))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a token for good (from its next request on); revoking it again changes nothing.")

        @Argument(help: "The token's id, as 'reel token list' shows it (12 hex digits).") var id: String
        @OptionGroup var global: TimedLedgerOptions

        func run() async throws {
            try await global.withApplication { app in
                let token = try app.revokeToken(id)
                Console.changed("the token was revoked")
                if global.json {
                    try printJSON(ReportJSON.token(token))
                } else if let revokedAt = token.revokedAt {
                    Console.line("revoked token \(token.id) of the account '\(token.handle)' (on \(Timestamp.labelled(revokedAt)))")
                }
            }
        }
    }
}

import ArgumentParser
import Reel
import ReportJSON

/// `reel languages`: the languages `settings language` takes, with the account's own.
struct Languages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "languages",
        abstract: "List the languages 'reel settings language' takes.",
        discussion: """
            A tag is a language code (de), or one with a region (de-DE, pt-BR, fr-CA). Case, an \
            underscore (en_US) and a locale's encoding (en_US.UTF-8) do not matter, and an English \
            name (German) is taken too.
            """)

    @OptionGroup var global: AccountOptions

    func run() async throws {
        try await global.withApplication { app in
            let report = try app.languages(for: try global.handle())
            try global.json ? printJSON(ReportJSON.languages(report)) : render(report)
        }
    }

    private func render(_ report: LanguagesReport) {
        var table = TextTable(["CODE", "LANGUAGE"] + (report.sampleCatalog ? ["IN THE SAMPLE CATALOG"] : []))
        let language = String(report.current.value.prefix(2))
        for entry in report.languages {
            let mark = entry.code == language ? " ★" : ""
            table.add([entry.code, entry.name + mark] + (report.sampleCatalog ? [entry.inSampleCatalog ? "yes" : ""] : []))
        }
        Console.line(table.render(width: Terminal.width, flexible: [.init(1, minimum: 12)]))
        let footer = [
            "\(Counted.of(report.languages.count, "language")); add one of \(report.regions.count) ISO 3166-1 regions for a region's text (de-DE, pt-BR, fr-CA).",
            "★ the account's language: \(report.current) (\(report.current.languageName)); change it with 'reel settings language TAG'.",
        ] + (report.sampleCatalog ? ["Without TMDb credentials the sample catalog shows every other language in English."] : [])
        for line in footer { Console.line(Terminal.dim(Terminal.fit(line))) }
    }
}

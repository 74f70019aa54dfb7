import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// A TMDb credential with whitespace or a control character inside (`printf 'bad\ntoken'`, a CR
/// from a Windows file) is a usage error (64) before any request, from standard input, the
/// environment and the config file alike; the message never shows the secret.
@Suite struct CredentialShapeTests {

    @Test func loginRefusesACredentialWithALineBreakInsideAndSavesNothing() async throws {
        let home = Home()
        for input in ["bad-4711\nsecret-0815", "bad-4711\r\nsecret-0815\n", "bad-4711 secret-0815\n", "bad-4711\tsecret-0815", "bad-4711\u{1B}secret-0815",
                      "bad-4711\u{202E}secret-0815"] {
            let out = try await home.fails(["tmdb", "login", "--no-check"], stdin: input, status: 64, "on standard input", "nothing was sent")
            #expect(!out.stderr.contains("4711") && !out.stderr.contains("0815"), "\(out.stderr)")
            #expect(!FileManager.default.fileExists(atPath: home.credentialsFile), "\(input.debugDescription) was saved")
        }
        // One trailing line break (a token file's), CR LF included, is not part of the credential.
        for input in ["good-4711\n", "good-4711\r\n", "good-4711"] {
            let out = try await home.reel(["tmdb", "login", "--no-check"], stdin: input)
            #expect(out.status == 0, "\(out.stderr)")
            #expect(try String(contentsOfFile: home.credentialsFile, encoding: .utf8) == "{\"tmdb_api_token\": \"good-4711\"}\n")
        }
    }

    @Test func aMalformedCredentialInTheEnvironmentIsAUsageErrorBeforeAnyRequest() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(environment: ["REEL_TMDB_BASE_URL": server.baseURL])
        let cases: [(String, String)] = [
            ("TMDB_API_TOKEN", "tok-4711\r\nX-Injected: 1"), ("TMDB_API_TOKEN", "tok-4711\nrest"), ("TMDB_API_KEY", "key 4711"),
            ("TMDB_API_KEY", "key\u{7F}4711"),
        ]
        for (name, value) in cases {
            for arguments in [["show", "movie", "550"], ["fav", "add", "movie", "550"], ["tmdb", "status"], ["movies"]] {
                let out = try await home.fails(arguments, environment: [name: value], status: 64, "in \(name)", "nothing was sent")
                #expect(!out.stderr.contains("4711"), "\(out.stderr)")
            }
        }
        await #expect(try server.requests() == 0, "no request was made")
        // Blank means unset, as before: the sample catalog answers.
        let blank = try await home.reel(["show", "movie", "550"], environment: ["TMDB_API_TOKEN": " \n"])
        #expect(blank.status == 0 && blank.stderr.contains("sample catalog"), "\(blank.stderr)")
    }

    @Test func aMalformedCredentialInTheConfigFileIsAUsageError() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(environment: ["REEL_TMDB_BASE_URL": server.baseURL])
        try FileManager.default.createDirectory(atPath: home.config + "/reel", withIntermediateDirectories: true)
        try Data(#"{"tmdb_api_token": "tok-4711\r\nX-Injected: 1"}"#.utf8).write(to: URL(fileURLWithPath: home.credentialsFile))
        let out = try await home.fails(["show", "movie", "550"], status: 64, home.credentialsFile, "nothing was sent")
        #expect(!out.stderr.contains("4711"))
        await #expect(try server.requests() == 0)
    }
}

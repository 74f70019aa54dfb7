import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel serve --tls-cert --tls-key`: HTTPS served directly, and a certificate that is not one
/// refused with one line.
@Suite struct ServiceTLSTests {
    @Test func httpsIsServedWithTheGivenCertificate() async throws {
        let dir = temporaryDirectory("serve-tls")
        let made = try await Harness.run(
            "/usr/bin/openssl",
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        #expect(made.status == 0, "\(made.stderr)")
        let service = try ServiceProcess(Home(), arguments: ["--tls-cert", dir + "/cert.pem", "--tls-key", dir + "/key.pem"])
        #expect(service.url.hasPrefix("https://127.0.0.1:"))
        let answer = try await Harness.run("/usr/bin/curl", ["-s", "--cacert", dir + "/cert.pem", service.url + "/health"])
        #expect(answer.stdout.contains("\"status\":\"ok\""), "\(answer.stdout) \(answer.stderr)")
        let plain = try await Harness.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http" + service.url.dropFirst(5) + "/health"])
        #expect(plain.stdout != "200", "plain HTTP on the TLS port")

        // Over TLS a sign-in link's session cookie is Secure, and __Host- prefixed: a browser
        // takes it only from a secure origin, for the whole host.
        let created = try await service.reel(["token", "create", "--user", "ann", "--link", "--url", service.url, "--json"])
        let link = try #require(try Harness.json(created.stdout)["link"] as? String)
        let secret = String(link.split(separator: "#signin=").last ?? "")
        let signedIn = try await Harness.run(
            "/usr/bin/curl",
            ["-s", "-D", "-", "-o", "/dev/null", "--cacert", dir + "/cert.pem", "-H", "Content-Type: application/json", "-H", "Origin: \(service.url)",
             "--data", "{\"link\":\"\(secret)\"}", service.url + "/v1/session"])
        let cookie = signedIn.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        #expect(cookie.contains("__Host-reel_session=reel_") && cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
                "\(signedIn.stdout)")
        _ = try await service.stopped()
    }

    @Test func aCertificateThatIsNotOneIsOneLineAndExit64() async throws {
        let dir = temporaryDirectory("serve-tls-bad")
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: dir + "/cert.pem"))
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: dir + "/key.pem"))
        let out = try await Home().reel(["serve", "--listen", "127.0.0.1:0", "--tls-cert", dir + "/cert.pem", "--tls-key", dir + "/key.pem"])
        #expect(out.status == 64, "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("--tls-cert"), "\(out.stderr)")
        let half = try await Home().reel(["serve", "--tls-cert", dir + "/cert.pem"])
        #expect(half.status == 64)
    }

    /// Where `reel serve` cannot listen is said in one line with the exit of its kind, not as an
    /// internal error: the address in use (69, a service already there), an address not this
    /// machine's and a host name that does not resolve (64).
    @Test func aPlaceItCannotListenIsOneLine() async throws {
        let service = try await ServiceProcess.start(Home())
        defer { service.stop() }
        let taken = String(service.url.dropFirst("http://".count))
        for (listen, status, words) in [
            (taken, Int32(69), "the address is in use"), ("192.0.2.1:80", 64, "not this machine's"), ("nohost.invalid:80", 64, "does not resolve"),
        ] {
            let out = try await Home().reel(["serve", "--listen", listen])
            #expect(out.status == status && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains(words), "\(listen): \(out.status) \(out.stderr)")
        }
    }
}

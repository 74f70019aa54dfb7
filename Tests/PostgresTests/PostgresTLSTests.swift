import Failures
import Foundation
import Processes
import PostgresStore
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// TLS when the URL asks for it, against a real server that takes TLS connections only
/// (`hostssl` in pg_hba.conf) with a certificate of a private CA: `require` connects without
/// checking it, `verify-full` checks it against the system's roots (and fails) or against
/// `sslrootcert` (and connects), and a wrong host name or a CA that did not sign it fails. Every
/// refusal is one line of its kind, without the password.
@Suite struct PostgresTLSTests {
    struct Certificates: Sendable {
        let ca: String
        let otherCA: String
        let cert: String
        let key: String
    }

    /// A CA, another CA, and a server certificate for the name `localhost` (no address) signed by
    /// the first.
    static func certificates() throws -> Certificates {
        let dir = temporaryDirectory("tls")
        chmod(dir, 0o755)
        func openssl(_ arguments: [String]) throws {
            let ended = try ChildProcess.spawn(["/usr/bin/openssl"] + arguments).wait()
            if ended != .exited(0) { throw Failure(.storage, "openssl \(arguments.first ?? "") failed") }
        }
        for name in ["ca", "other"] {
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/\(name).key", "-out", "\(dir)/\(name).pem", "-days", "2", "-subj", "/CN=Reel test \(name)"])
        }
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr", "-subj", "/CN=localhost"])
        try Data("subjectAltName=DNS:localhost\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/ext.cnf"))
        try openssl([
            "x509", "-req", "-in", "\(dir)/server.csr", "-CA", "\(dir)/ca.pem", "-CAkey", "\(dir)/ca.key", "-CAcreateserial", "-out", "\(dir)/server.pem",
            "-days", "2", "-extfile", "\(dir)/ext.cnf",
        ])
        chmod("\(dir)/server.key", 0o600)
        if getuid() == 0, let postgres = getpwnam("postgres") {
            for file in ["server.key", "server.pem"] { chown("\(dir)/\(file)", postgres.pointee.pw_uid, postgres.pointee.pw_gid) }
        }
        return Certificates(ca: "\(dir)/ca.pem", otherCA: "\(dir)/other.pem", cert: "\(dir)/server.pem", key: "\(dir)/server.key")
    }

    static let started = Task { () async throws -> (PostgresServer, Certificates) in
        let certificates = try Self.certificates()
        let server = try await PostgresServer.started(
            "PostgresTLSTests", settings: ["ssl": "on", "ssl_cert_file": certificates.cert, "ssl_key_file": certificates.key])
        // TCP connections with TLS only: a connection that gets through used it.
        let hba = server.dataDirectory + "/pg_hba.conf"
        let rules = try String(contentsOfFile: hba, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("host ") ? "hostssl " + $0.dropFirst(5) : String($0) }.joined(separator: "\n")
        try Data(rules.utf8).write(to: URL(fileURLWithPath: hba))
        try await server.psql("SELECT pg_reload_conf()")
        return (server, certificates)
    }

    @Test func tlsIsUsedAndCheckedAsTheURLAsks() async throws {
        let (server, certificates) = try await Self.started.value
        let base = "postgres://postgres:\(PostgresServer.password)@localhost:\(server.port)/postgres"
        for query in ["?sslmode=require", "?sslmode=verify-full&sslrootcert=\(certificates.ca)", "?sslmode=require&sslrootcert=\(certificates.ca)"] {
            #expect(try await PostgresMigrator.version(of: try PostgresLocation(base + query)) == 0, "\(query) connects")
        }
        for (query, kind, words) in [
            ("?sslmode=disable", FailureKind.refusedCredentials, "no pg_hba.conf entry"),
            ("?sslmode=verify-full", .unavailable, "TLS failed"),
            ("?sslmode=require&sslrootcert=\(certificates.otherCA)", .unavailable, "TLS failed"),
            ("?sslmode=verify-full&sslrootcert=\(certificates.otherCA)", .unavailable, "TLS failed"),
        ] {
            do {
                _ = try await PostgresMigrator.version(of: try PostgresLocation(base + query))
                Issue.record("\(query) connected")
            } catch let failure as any KindedError {
                #expect(failure.kind == kind && failure.summary.contains(words), "\(query): \(failure.kind) \(failure.summary)")
                #expect(!failure.summary.contains(PostgresServer.password) && !failure.summary.contains("\n"), "\(failure.summary)")
            }
        }
        // The host name is checked with verify-full: the certificate names localhost, not 127.0.0.1.
        let address = "postgres://postgres:\(PostgresServer.password)@127.0.0.1:\(server.port)/postgres"
        await #expect(throws: (any Error).self) {
            _ = try await PostgresMigrator.version(of: try PostgresLocation(address + "?sslmode=verify-full&sslrootcert=\(certificates.ca)"))
        }
        #expect(try await PostgresMigrator.version(of: try PostgresLocation(address + "?sslmode=require&sslrootcert=\(certificates.ca)")) == 0)
        #expect(throws: Failure.self) { try PostgresLocation(base + "?sslrootcert=\(certificates.ca)") }
        #expect(throws: Failure.self) { try PostgresLocation(base + "?sslmode=require&sslrootcert=relative.pem") }
    }
}

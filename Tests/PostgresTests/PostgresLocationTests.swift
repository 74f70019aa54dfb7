import Failures
import PostgresStore
import Testing

/// Store URLs as libpq writes them: defaults, escapes, TLS modes, sockets; a password never shown;
/// each mistake one usage line that does not quote the URL.
@Suite struct PostgresLocationTests {
    @Test func aFullURLIsReadWithItsParts() throws {
        let location = try PostgresLocation("postgres://reel:s%40cret%3Aw@db.example:6543/ledger?sslmode=require")
        #expect(location.host == "db.example" && location.port == 6543 && location.user == "reel")
        #expect(location.password == "s@cret:w" && location.database == "ledger" && location.tls == .require)
        #expect(location.description == "postgres://reel@db.example:6543/ledger")
    }

    @Test func missingPartsTakeLibpqsDefaults() throws {
        let location = try PostgresLocation("postgresql://localhost")
        #expect(location.user == "postgres" && location.port == 5432 && location.database == "postgres")
        #expect(location.password == nil && location.tls == .disable && location.socketDirectory == nil)
        let named = try PostgresLocation("postgres://ann@localhost")
        #expect(named.database == "ann", "the database defaults to the user's name")
    }

    @Test func aSocketDirectoryAndItsPortComeFromTheQuery() throws {
        let location = try PostgresLocation("postgres:///reel?host=/var/run/postgresql&port=5433")
        #expect(location.socketDirectory == "/var/run/postgresql" && location.host == nil && location.port == 5433)
        #expect(location.description == "postgres://postgres@/reel?host=/var/run/postgresql&port=5433")
    }

    @Test func anIPv6LiteralIsAHostAndItsPortIsRead() throws {
        let location = try PostgresLocation("postgres://u:pw@[::1]:6000/d")
        #expect(location.host == "::1" && location.port == 6000 && location.password == "pw")
        #expect(location.description == "postgres://u@[::1]:6000/d")
        #expect(try PostgresLocation("postgres://[fe80::1]/d").port == 5432)
    }

    @Test func aPasswordWithEscapedSpecialCharactersIsReadWhole() throws {
        let location = try PostgresLocation("postgres://al%40ce:%3FS%2Fu%23m%40er%25@db:7/x")
        #expect(location.user == "al@ce" && location.password == "?S/u#m@er%" && location.host == "db" && location.port == 7)
    }

    @Test func severalHostsAreTriedInOrderAndAskForAWritableOneByDefault() throws {
        let pair = try PostgresLocation("postgres://reel:pw@db1:5432,[::1]:5433,db3/ledger")
        #expect(pair.endpoints.map(\.description) == ["db1:5432", "[::1]:5433", "db3:5432"])
        #expect(pair.target == .readWrite, "several hosts: the one that accepts writes")
        #expect(pair.description == "postgres://reel@db1:5432,[::1]:5433,db3:5432/ledger")
        let one = try PostgresLocation("postgres://reel@db1/ledger")
        #expect(one.target == .any && one.endpoints.count == 1)
        let standby = try PostgresLocation("postgres://reel@db1,db2/ledger?target_session_attrs=prefer-standby")
        #expect(standby.target == .preferStandby && standby.description.hasSuffix("?target_session_attrs=prefer-standby"))
        #expect(pair.targeting(.preferStandby).target == .preferStandby && pair.targeting(.preferStandby).endpoints == pair.endpoints)
    }

    @Test(arguments: [
        ("postgres://u:pw-1@h1,,h2/d", "host list has an empty entry"),
        ("postgres://u:pw-1@h1,h2/d?target_session_attrs=writable", "target_session_attrs in the store URL must be one of any, read-write"),
        ("postgres://u:pw-1@h1,h2/d?port=5433", "cannot go with several hosts"),
        ("postgres://u:pw-1@h1:5432,h2:0/d", "port must be 1 to 65535"),
    ])
    func aBadHostListIsOneUsageLine(url: String, words: String) {
        do {
            _ = try PostgresLocation(url)
            Issue.record("\(words): accepted")
        } catch let failure as Failure {
            #expect(failure.kind == .usage && failure.summary.contains(words) && !failure.summary.contains("pw-1"), "\(failure.summary)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func pgpasswordFillsAMissingPasswordOnly() throws {
        let environment = ["PGPASSWORD": "from-env"]
        #expect(try PostgresLocation("postgres://u@h/d", environment: environment).password == "from-env")
        #expect(try PostgresLocation("postgres://u:given@h/d", environment: environment).password == "given")
        #expect(try PostgresLocation("postgres://u@h/d", environment: ["PGPASSWORD": ""]).password == nil)
        #expect(try PostgresLocation("postgres://u:@h/d", environment: environment).password == "from-env", "an empty password is none")
    }

    @Test(arguments: [
        ("mysql://u:pw-1@h/d", "starts with postgres://"),
        ("postgres://u:pw-1@h/d?sslmode=sometimes", "sslmode in the store URL must be one of disable, prefer, require, verify-full"),
        ("postgres://u:pw-1@h/d?application_name=x", "a parameter Reel does not know (known: sslmode, sslrootcert, host, port, target_session_attrs)"),
        ("postgres://u:pw-1@h/d?sslmode=require&sslmode=disable", "gives sslmode= twice"),
        ("postgres://u:pw-1@h:99999999999999999999/d", "port must be 1 to 65535"),
        ("postgres://u:?pw-1@h:5432/d", "must be escaped"),
        ("postgres://u:2024#pw-1@h/d", "must be escaped"),
        ("postgres://u.invalid:/pw-1@127.0.0.1", "must be escaped"),
        ("postgres://u:pw-1%zz@h/d", "not an escape"),
        ("postgres://u:pw-1@[::1/d", "without its ']'"),
        ("postgres://u:pw-1@h:0/d", "port must be 1 to 65535"),
        ("postgres://u:pw-1@h/d?port=70000", "port= in the store URL must be 1 to 65535"),
        ("postgres://u:pw-1@/d", "names no host"),
        ("postgres://u:pw-1@h/d?host=relative", "absolute path"),
        ("postgres://u:pw-1@h/a/b", "a '/' in it"),
        ("postgres://u:pw 1@h/d", "not a valid URL"),
        ("postgres://u:pw-1@h/d\u{1b}[31m", "not a valid URL"),
    ])
    func aBadURLIsOneUsageLineWithoutThePassword(url: String, words: String) throws {
        do {
            _ = try PostgresLocation(url)
            Issue.record("\(url) was taken")
        } catch let failure as Failure {
            #expect(failure.kind == .usage)
            #expect(failure.summary.contains(words), "\(failure.summary)")
            #expect(!failure.summary.contains("pw"), "the password reached the message: \(failure.summary)")
            #expect(!failure.summary.contains("\n") && !failure.summary.contains("\u{1b}"))
        }
    }

    @Test func theDescriptionNeverHoldsThePassword() throws {
        for url in ["postgres://u:hunter2@h/d", "postgres://u:hunter2@h:1/d?sslmode=verify-full", "postgres://u:hunter2@/d?host=/s"] {
            let location = try PostgresLocation(url)
            #expect(location.password == "hunter2" && !location.description.contains("hunter2"), "\(location)")
            var dumped = ""
            dump(location, to: &dumped)
            #expect(!String(reflecting: location).contains("hunter2") && !dumped.contains("hunter2"), "\(dumped)")
        }
    }
}

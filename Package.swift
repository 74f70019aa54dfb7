// swift-tools-version:6.2
import PackageDescription

/// Module hygiene, as Hummingbird does: an `import` is internal unless written `public import`, so
/// a layer's dependencies are declared, not leaked; and a member is visible only where its module
/// is imported. A warning in Reel's own code fails the build, debug and release (dependencies keep
/// theirs: this applies to the targets that name it).
let hygiene: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

/// Modules on every command's hot path, compiled with optimization in debug builds too (the
/// tests run the debug build). Small modules, so the build barely notices.
let optimized: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
        .executable(name: "reel-bench", targets: ["reel-bench"]),
        .executable(name: "fake-tmdb", targets: ["fake-tmdb"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "LMDBStore", targets: ["LMDBStore"]),
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "Reel", targets: ["Reel"]),
        .library(name: "ReelApp", targets: ["ReelApp"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "Failures", targets: ["Failures"]),
        .library(name: "JSONKit", targets: ["JSONKit"]),
        .library(name: "Files", targets: ["Files"]),
        .library(name: "Pictures", targets: ["Pictures"]),
        .library(name: "TerminalGraphics", targets: ["TerminalGraphics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Already in the graph through AsyncHTTPClient; named because Catalog imports from them
        // (the decompression limit's type; TLS errors, to classify them).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        // The HTTP service (`reel serve`): the server, its logs, metrics and graceful shutdown.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The PostgreSQL store (`--store postgres://…`, `reel store migrate`).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // The runtime of the Swift client the tests generate from the service's document
        // (Tools/generate_openapi_client.sh; the generator itself is not a dependency).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        // The handbook (Sources/Reel/Reel.docc): `swift package generate-documentation --target Reel`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // LMDB comes from the system (Debian: liblmdb-dev); nothing of it is vendored.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // ncursesw comes from the system too (Debian: libncurses-dev), for the terminal app. Not
        // through pkg-config: its only flags are -D ones, which SwiftPM drops with a warning on
        // every build; the headers are on the default path and the module map links ncursesw
        // (Debian's libncursesw.so brings libtinfo), as CLibCrypto is found.
        .systemLibrary(name: "CNcursesW"),
        // Image codecs from the system (Debian: libturbojpeg0-dev, libpng-dev) and the terminal
        // image renderer (libchafa-dev, whose headers need libglib2.0-dev).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // zlib (Debian: zlib1g-dev), which compresses the pixels of kitty's images.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Images as pixels: JPEG and PNG decoded (with a pixel limit) and encoded, through the
        // system's libjpeg-turbo and libpng.
        .target(name: "Pictures", dependencies: ["CTurboJPEG", "CPNG", "Failures"], swiftSettings: hygiene),
        // Pictures drawn in a terminal: what the terminal can show (asked, not guessed), and the
        // bytes that draw an image in a box of cells: kitty's written here (pixels compressed with
        // zlib), the others through libchafa.
        .target(name: "TerminalGraphics", dependencies: ["CChafa", "CZlib", "Pictures", "Failures", "Processes"], swiftSettings: hygiene),
        // Child processes: posix_spawn with a clean signal mask and no inherited descriptors,
        // waited for with waitpid, off the concurrency pool. The one way a process is started.
        .target(name: "Processes", swiftSettings: hygiene),
        // What kind of failure an error is (usage, not found, tampered, ...), for every module.
        .target(name: "Failures", swiftSettings: hygiene),
        // What the terminal faces (reel, reel ui) show alike: display width, terminal-safe text,
        // the time zone shown, URL passwords hidden. The service formats nothing for a terminal.
        .target(name: "Presentation", dependencies: ["Failures"], swiftSettings: hygiene),
        // JSON as bytes and values: the strict parser, the canonical and the indented printer.
        // Plumbing for the ledger's payloads, TMDb's answers, the sample catalog and `--json`.
        // Optimized in debug builds too: every command, service and test parses JSON through it
        // (the sample catalog's 400 KB on a command's first read of it), and unoptimized it was
        // a third of a short command's processor time.
        .target(name: "JSONKit", dependencies: ["Failures"], swiftSettings: hygiene + optimized),
        // Files read up to a limit (imports, photos) and written whole or not at all, mode 0600
        // (exports, the credentials file).
        .target(name: "Files", dependencies: ["Failures"], swiftSettings: hygiene),
        .target(name: "LMDB", dependencies: ["CLMDB", "Failures"], swiftSettings: hygiene),
        // AES-256-GCM with a reusable key schedule from the system's OpenSSL libcrypto, loaded with
        // dlopen on first bulk use (headers: Debian libssl-dev); see GCMContext.
        .systemLibrary(name: "CLibCrypto"),
        // What every store shares: the store boundary (EventStore and its parts), events,
        // envelopes, the chain, sealing and keyring, the batching queue, replay checks.
        .target(
            name: "EventLog",
            dependencies: ["LMDB", "Failures", "CLibCrypto", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: hygiene
        ),
        // The LMDB store: the ledger in the data directory (`ledger/`, `keys/`), its writer, group
        // commit, reads, replay lanes, verifier and key store, behind the store boundary.
        .target(
            name: "LMDBStore",
            dependencies: ["EventLog", "LMDB", "Failures", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: hygiene
        ),
        // The domain: pure Swift, no storage and no network.
        .target(name: "Ledger", dependencies: ["Failures", "JSONKit"], swiftSettings: hygiene),
        // Application services: the domain wired to the log, projections in the store, and
        // hydration (ledger items filled in with catalog details). LMDB for the account tokens'
        // own small environment (Tokens/TokenStore), as Catalog has its caches'.
        .target(
            name: "Reel", dependencies: ["Failures", "Files", "JSONKit", "Ledger", "EventLog", "Catalog", "LMDB", "Pictures", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: hygiene),
        // Choosing and opening stores, outside the core: the LMDB store in the data directory, a
        // PostgreSQL store, or a shard map's shards, and routing each account to its shard
        // (StoreRouter, a LedgerRouter); the operators' use cases on stores (schema, shards,
        // moves, copies). The only code above the store boundary that names PostgreSQL.
        .target(name: "Stores", dependencies: ["Reel", "Failures", "Ledger", "EventLog", "LMDBStore", "PostgresStore"], swiftSettings: hygiene),
        // The one JSON form of each report, that `reel --json` prints and `reel serve` answers
        // with (Schemas/cli/, and the service's openapi.json components copied from them).
        .target(name: "ReportJSON", dependencies: ["Reel", "Stores"], swiftSettings: hygiene),
        // The PostgreSQL store: where a store URL points, and the schema's versioned migrations
        // (Schemas/postgres-layout.md), through PostgresNIO.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Failures", "EventLog",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: hygiene),
        // TMDb: models, the polite HTTP client, its LMDB response cache, and the bundled sample catalog.
        .target(
            name: "Catalog",
            dependencies: [
                "Failures", "Files", "JSONKit", "Ledger", "LMDB", "Pictures",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // SampleData/*.json is the source of Sample/SampleData.swift (Tools/embed_sample_catalog.py).
            exclude: ["SampleData"],
            swiftSettings: hygiene
        ),
        // A TMDb-compatible HTTP server over the sample catalog, with fault injection.
        .target(
            name: "FakeTMDb",
            dependencies: [
                "Catalog", "JSONKit", "Ledger",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: hygiene
        ),
        .executableTarget(
            name: "fake-tmdb",
            dependencies: ["FakeTMDb", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: hygiene
        ),
        // The terminal app (`reel ui`): a pure model, update and view over the application core,
        // and a driver on ncursesw that owns the terminal and runs effects on tasks.
        .target(
            name: "ReelApp", dependencies: ["Reel", "Presentation", "CNcursesW", "TerminalGraphics", "Processes"], swiftSettings: hygiene),
        // The HTTP service (`reel serve`): routes that parse a request, call the application core
        // and render its report as JSON (or a problem), on Hummingbird; account tokens, limits,
        // logs, metrics and graceful shutdown.
        .target(
            name: "ReelService",
            dependencies: [
                "Reel", "Stores", "ReportJSON",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // Web/ is the source of WebAssets.swift (Tools/embed_web.py).
            exclude: ["Web"],
            swiftSettings: hygiene),
        .executableTarget(
            name: "reel",
            // The command-line face: it imports the application core (and the terminal app and
            // the service, faces of their own) and nothing below it.
            dependencies: ["Reel", "Stores", "ReportJSON", "Presentation", "ReelApp", "ReelService", "TerminalGraphics", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/ReelCLI",
            swiftSettings: hygiene
        ),
        .executableTarget(
            name: "reel-bench",
            dependencies: [
                "Reel", "Stores", "Ledger", "EventLog", "LMDBStore", "LMDB", "Catalog", "FakeTMDb", "Pictures", "TerminalGraphics", "PostgresStore", "Processes",
                // The PostgreSQL benchmark starts its own server, and inserts its raw baseline with the driver itself.
                "ReelTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The service benchmark's baseline: a plain route on the same HTTP stack.
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: hygiene
        ),
        // The store boundary's contract, written once: every store's tests run it (EventStoreContract).
        .target(name: "EventStoreContract", dependencies: ["EventLog"], swiftSettings: hygiene),
        // Helpers shared by the test targets only.
        .target(name: "ReelTestSupport", dependencies: ["Processes", "Pictures", "EventLog"], path: "Sources/ReelTestSupport", swiftSettings: hygiene),
        // The end-to-end suites' harness: the built `reel`, `reel serve` and `fake-tmdb` run as
        // children, a real terminal, the schema validator (shared by the end-to-end suites and PostgresTests).
        .target(
            name: "EndToEndSupport",
            dependencies: [
                "ReelTestSupport", "Processes",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: hygiene),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "ReelTestSupport"], swiftSettings: hygiene),

        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "LMDBStore", "EventStoreContract", "LMDB", "ReelTestSupport", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: hygiene),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "ReelTestSupport"], swiftSettings: hygiene),
        .testTarget(name: "JSONKitTests", dependencies: ["JSONKit", "ReelTestSupport"], swiftSettings: hygiene),
        .testTarget(name: "FilesTests", dependencies: ["Files", "Processes", "ReelTestSupport"], swiftSettings: hygiene),
        .testTarget(name: "LedgerTests", dependencies: ["Failures", "Ledger", "JSONKit", "ReelTestSupport"], swiftSettings: hygiene),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "Catalog", "FakeTMDb", "JSONKit", "Ledger", "Pictures", "Processes", "ReelTestSupport",
                // To make the transport's errors as AsyncHTTPClient, NIO and NIOSSL throw them.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: hygiene
        ),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "ReelTestSupport"], exclude: ["Fixtures"], swiftSettings: hygiene),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "CZlib", "Pictures", "Processes", "ReelTestSupport"], swiftSettings: hygiene),
        .testTarget(name: "ReelAppTests", dependencies: ["ReelApp", "Reel", "Stores", "Presentation", "ReelTestSupport"], exclude: ["Snapshots"], swiftSettings: hygiene),
        .testTarget(name: "ReelTests", dependencies: ["Reel", "Stores", "JSONKit", "Ledger", "EventLog", "LMDBStore", "PostgresStore", "ReelTestSupport", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: hygiene),
        // The service's routes through its router (HummingbirdTesting), and its answers checked
        // against its OpenAPI document (Schemas/service/openapi.json).
        .testTarget(
            name: "ReelServiceTests",
            dependencies: [
                "ReelService", "Reel", "Stores", "Processes", "ReelTestSupport", "FakeTMDb",
                .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: hygiene),
        // The end-to-end suites run the built binaries as people and programs do, in three
        // targets that compile side by side: the commands people type (EndToEndTests); the
        // ledger's guarantees through them: forgetting, tamper evidence, damage, moves, imports
        // and exports, many processes (GuaranteeTests; Reel, Ledger and LMDB only to craft
        // hostile exports with valid hashes); the terminal app in tmux and `reel serve` over real
        // HTTP, as an app would call it (AppAndServiceTests).
        .testTarget(name: "EndToEndTests", dependencies: ["ReelTestSupport", "EndToEndSupport", "Pictures"], swiftSettings: hygiene),
        .testTarget(
            name: "GuaranteeTests",
            dependencies: [
                "EventLog", "LMDBStore", "Reel", "Stores", "Ledger", "LMDB", "Failures", "ReelTestSupport", "EndToEndSupport", "Processes",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: hygiene),
        .testTarget(
            name: "AppAndServiceTests",
            dependencies: [
                "Reel", "ReelTestSupport", "EndToEndSupport", "Processes",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: hygiene),
        // A client generated from the served document with swift-openapi-generator, as an app
        // would make one (Generated/, by Tools/generate_openapi_client.sh), running a flow against
        // the real `reel serve`. Generated code: the project's own settings are not its.
        .testTarget(
            name: "OpenAPIClientTests",
            dependencies: [
                "ReelTestSupport", "EndToEndSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml", "openapi.sha256", "generator-warnings.txt"]),
        // Every suite that starts a PostgreSQL server of its own (ReelTestSupport's PostgresServer):
        // the store against its contract, restarts, TLS and migrations; the core on PostgreSQL
        // (group commit, projection pages, shards and moves); `reel` and `reel serve` on it, and
        // copies between stores. (A face's suite that runs each test on both stores, with
        // `Store.allCases`, stays with the face.)
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "PostgresStore", "EventLog", "EventStoreContract", "Failures", "Processes", "ReelTestSupport", "EndToEndSupport",
                "Reel", "Stores", "Ledger", "JSONKit", "LMDBStore", "LMDB",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: hygiene),
    ]
)

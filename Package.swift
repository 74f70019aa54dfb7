// swift-tools-version:6.1
import PackageDescription

/// Module hygiene, as Hummingbird does: an `import` is internal unless written `public import`, so
/// a layer's dependencies are declared, not leaked; and a member is visible only where its module
/// is imported.
let hygiene: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
        .executable(name: "reel-bench", targets: ["reel-bench"]),
        .executable(name: "fake-tmdb", targets: ["fake-tmdb"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "Reel", targets: ["Reel"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "Failures", targets: ["Failures"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // LMDB comes from the system (Debian: liblmdb-dev); nothing of it is vendored.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // What kind of failure an error is (usage, not found, tampered, ...), for every module.
        .target(name: "Failures", swiftSettings: hygiene),
        .target(name: "LMDB", dependencies: ["CLMDB", "Failures"], swiftSettings: hygiene),
        // AES-256-GCM with a reusable key schedule from the system's OpenSSL libcrypto, loaded with
        // dlopen on first bulk use (headers: Debian libssl-dev); see GCMContext.
        .systemLibrary(name: "CLibCrypto"),
        .target(
            name: "EventLog",
            dependencies: ["LMDB", "Failures", "CLibCrypto", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: hygiene
        ),
        // The domain: pure Swift, no storage and no network.
        .target(name: "Ledger", dependencies: ["Failures"]),
        // Application services: the domain wired to the log, projections in the store, and
        // hydration (ledger items filled in with catalog details).
        .target(name: "Reel", dependencies: ["Failures", "Ledger", "EventLog", "LMDB", "Catalog", .product(name: "Crypto", package: "swift-crypto")]),
        // TMDb: models, the polite HTTP client, its LMDB response cache, and the bundled sample catalog.
        .target(
            name: "Catalog",
            dependencies: [
                "Failures", "Ledger", "LMDB",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // SampleData/*.json is the source of Sample/SampleData.swift (Tools/embed_sample_catalog.py).
            exclude: ["SampleData"]
        ),
        // A TMDb-compatible HTTP server over the sample catalog, with fault injection.
        .target(
            name: "FakeTMDb",
            dependencies: [
                "Catalog", "Ledger",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "fake-tmdb",
            dependencies: ["FakeTMDb", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "reel",
            dependencies: ["Reel", "Failures", "Ledger", "EventLog", "Catalog", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "reel-bench",
            dependencies: [
                "Reel", "Ledger", "EventLog", "LMDB", "Catalog", "FakeTMDb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The store boundary's contract, written once: every store's tests run it (EventStoreContract).
        .target(name: "EventStoreContract", dependencies: ["EventLog"], swiftSettings: hygiene),
        // Helpers shared by the test targets only.
        .target(name: "ReelTestSupport", path: "Sources/ReelTestSupport"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "ReelTestSupport"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "EventStoreContract", "LMDB", "ReelTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "LedgerTests", dependencies: ["Ledger", "ReelTestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "FakeTMDb", "Ledger", "ReelTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReelTests", dependencies: ["Reel", "Ledger", "EventLog", "ReelTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        // Reel, Ledger and LMDB only to craft hostile exports with valid hashes (CraftedExport).
        .testTarget(name: "EndToEndTests", dependencies: ["EventLog", "Reel", "Ledger", "LMDB", "ReelTestSupport"]),
    ]
)

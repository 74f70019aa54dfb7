// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
        .executable(name: "reel-bench", targets: ["reel-bench"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "Reel", targets: ["Reel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // LMDB comes from the system (Debian: liblmdb-dev); nothing of it is vendored.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(name: "LMDB", dependencies: ["CLMDB"]),
        .target(
            name: "EventLog",
            dependencies: ["LMDB", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The domain: pure Swift, no storage and no network.
        .target(name: "Ledger"),
        // Application services: the domain wired to the log, projections in the store.
        .target(name: "Reel", dependencies: ["Ledger", "EventLog", "LMDB", .product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(
            name: "reel",
            dependencies: ["Reel", "Ledger", "EventLog", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "reel-bench",
            dependencies: [
                "Reel", "Ledger", "EventLog", "LMDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets only.
        .target(name: "ReelTestSupport", path: "Sources/ReelTestSupport"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "ReelTestSupport"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "LMDB", "ReelTestSupport"]),
        .testTarget(name: "LedgerTests", dependencies: ["Ledger", "ReelTestSupport"]),
        .testTarget(name: "ReelTests", dependencies: ["Reel", "Ledger", "EventLog", "ReelTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["EventLog", "ReelTestSupport"]),
    ]
)

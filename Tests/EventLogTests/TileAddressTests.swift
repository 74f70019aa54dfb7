import LMDBStore
import ReelTestSupport
import Testing

@testable import EventLog

/// Tile paths as C2SP tlog-tiles writes them, read and written back; anything else refused,
/// extreme indexes included (never a trap: the path comes from anyone); checkpoints with sizes
/// Go's tlog would not read refused.
@Suite struct TileAddressTests {
    @Test func pathsReadAndWriteAsTheSpecificationSays() throws {
        for (path, level, index, width) in [
            ("0/000", 0, UInt64(0), 256), ("0/001.p/44", 0, 1, 44), ("1/000.p/1", 1, 0, 1), ("0/x001/x234/067", 0, 1_234_067, 256),
            ("2/x001/000.p/255", 2, 1_000, 255), ("7/000", 7, 0, 256),
        ] {
            let address = try #require(TileAddress(path: path), "\(path)")
            #expect((address.level, address.index, address.width) == (level, index, width), "\(path)")
            #expect(address.path == "tile/" + path)
        }
        for path in [
            "", "0", "0/1", "0/0000", "00/000", "-1/000", "8/000", "7/001", "0/001.p/0", "0/001.p/256", "0/001.p/07", "0/x1/000", "0/001/002",
            "entries/000", "0/x072/x057/x594/x037/x927/936", "0/x018/x446/x744/x073/x709/x551/615", "6/x001/000",
        ] {
            #expect(TileAddress(path: path) == nil, "\(path)")
        }
        // The largest index a level allows (the path that once trapped the service): its tile is
        // never complete in a tree a position counts.
        let last = try #require(TileAddress(path: "0/x072/x057/x594/x037/x927/935"))
        #expect(last.index == (UInt64(1) << 56) - 1)
        #expect(!last.isComplete(in: .max))
        #expect(TileAddress(level: 0, index: UInt64(1) << 56, width: 256) == nil)
        #expect(try #require(TileAddress(path: "0/000.p/5")).isComplete(in: 5) && !(try #require(TileAddress(path: "0/000.p/5")).isComplete(in: 4)))
        #expect(try #require(TileAddress(path: "1/000.p/1")).isComplete(in: 256))
    }

    @Test func checkpointsOfSizesGoCannotReadAreRefused() {
        let root = TreeHash.leaf([1])
        #expect(Checkpoint(body: "o\n\(Int64.max)\n\(root.base64)\n") != nil)
        #expect(Checkpoint(body: "o\n\(UInt64(Int64.max) + 1)\n\(root.base64)\n") == nil)
        #expect(Checkpoint(body: "o\n007\n\(root.base64)\n") == nil)
        #expect(Checkpoint(body: "o\n7\n\(root.base64)") == nil)
    }

    /// A ledger written for a while without the tree (as by an older Reel) verifies with the tree
    /// behind its head, and the next write with the tree brings it up to the head.
    @Test func aTreeBehindTheHeadVerifiesAndTheNextWriteCatchesUp() throws {
        let directory = temporaryDirectory()
        let stream = try StreamID("ann")
        func events(_ count: Int) throws -> [ProposedEvent] { try (0..<count).map { _ in try ProposedEvent(type: "favorite-added", payload: Array("{}".utf8)) } }
        do {
            let log = try EventLog.open(at: directory)
            try log.append(try events(5), to: stream)
        }
        do {
            var configuration = EventLog.Configuration()
            configuration.keepsTree = false
            let log = try EventLog.open(at: directory, configuration: configuration)
            try log.append(try events(7), to: stream)
            #expect(try log.read { try $0.treeFrontier().size } == 5)
            #expect(try log.verify().isIntact)
        }
        let log = try EventLog.open(at: directory)
        try log.append(try events(1), to: stream)
        #expect(try log.read { try $0.treeFrontier().size } == 13)
        #expect(try log.verify().isIntact)
    }
}

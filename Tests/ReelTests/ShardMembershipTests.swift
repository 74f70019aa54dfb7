import Failures
import Foundation
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// A shard's record of its place in the map (`ShardMembership`), replaced as a growth is recorded
/// and as the shards settle: by one process, or by two at once.
@Suite struct ShardMembershipTests {
    @Test func aRecordReplacedMeanwhileIsATemporaryFailureUnlessItIsTheSame() throws {
        let app = Application(.init(dataDirectory: temporaryDirectory(), environment: ["HOME": temporaryDirectory("membership-home")]) { _ in })
        let log = try app.ledger().log
        let grown = ShardMembership(index: 0, shards: 3, earlier: [2], settled: false)
        let settled = ShardMembership(index: 0, shards: 3, earlier: [2], settled: true)
        try ShardMembership(index: 0, shards: 2).record(in: log, name: "one")
        try grown.replace(ShardMembership(index: 0, shards: 2), in: log, name: "one", store: "s")
        #expect(try ShardMembership.recorded(in: log, store: "s").map { $0 == grown && $0.settled == false } == true)
        // Two `store move --all` at once: the second finds the record the first wrote, its own.
        try settled.replace(grown, in: log, name: "one", store: "s")
        try settled.replace(grown, in: log, name: "one", store: "s")
        #expect(try ShardMembership.recorded(in: log, store: "s")?.settled == true)
        // Another record than expected, and not this one: run again (75), nothing written.
        let other = ShardMembership(index: 0, shards: 4, earlier: [2, 3], settled: false)
        #expect {
            try other.replace(grown, in: log, name: "one", store: "s")
        } throws: { ($0 as? any KindedError)?.kind == .temporary }
        #expect(try ShardMembership.recorded(in: log, store: "s")?.shards == 3)
    }
}

import Dispatch
import EventLog
import Foundation
import ReelTestSupport
import Synchronization
import Testing

/// `BatchQueue` committing in a pipeline (`commitAhead`, as PostgreSQL's group commit of commands
/// does): the next batch begins while the one before commits, callers are answered in commit
/// order, a batch that may not share the pipeline waits for the answers before it, and a batch
/// whose commit fails is recovered each alone before anything after it is answered.
@Suite struct BatchQueuePipelineTests {
    struct Failed: Error {}

    /// Submits `requests` one after another, each once the one before is in: the first held in
    /// its transaction (until `firstHeld`), the rest queued behind it in this order; then
    /// releases the first (`release`) and returns every request's outcome.
    static func submitted(
        _ requests: [Int], to queue: BatchQueue<Int, Int>, release: DispatchSemaphore, firstHeld: () -> Bool
    ) async -> [Int: Result<Int, any Error>] {
        await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do { return (request, .success(try await queue.submit(request))) } catch { return (request, .failure(error)) }
                }
                if index == 0 {
                    _ = await eventually(firstHeld)
                } else {
                    _ = await eventually { queue.load.queued == index }
                }
            }
            release.signal()
            var out: [Int: Result<Int, any Error>] = [:]
            for await (request, result) in group { out[request] = result }
            return out
        }
    }

    @Test func batchesBeginWhileTheOneBeforeCommitsAndAreAnsweredInOrder() async throws {
        let log = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let writer = DispatchQueue(label: "batch-queue-pipeline")
        // 100 stands for a command that runs alone (a deletion): a batch of its own, out of the pipeline.
        let queue = BatchQueue<Int, Int>(
            schedule: { writer.async(execute: $0) },
            batchSize: { requests in requests.first == 100 ? 1 : min(3, requests.prefix { $0 != 100 }.count) },
            pipelines: { !$0.contains(100) },
            commitAhead: { batch in
                log.withLock { $0.append("begin \(batch)") }
                if batch == [1] { gate.wait() }
                return .sent(wait: {
                    log.withLock { $0.append("wait \(batch)") }
                    // 13 fails any transaction it is in: its batch, then itself alone.
                    if batch.contains(13) { throw Failed() }
                    return batch.map { .success($0 * 10) }
                })
            })
        let requests = [1, 2, 3, 13, 100, 4]
        let results = await Self.submitted(requests, to: queue, release: gate) { log.withLock { $0 } == ["begin [1]"] }
        for request in [1, 2, 3, 100, 4] { #expect(try results[request]?.get() == request * 10) }
        #expect(throws: Failed.self) { try results[13]?.get() }
        #expect(
            log.withLock { $0 } == [
                "begin [1]",
                // The next batch begins before the one in flight is answered.
                "begin [2, 3, 13]", "wait [1]",
                // 100 may not share the pipeline: the batch before is answered first; it fails, and
                // each of its requests commits alone before anything else.
                "wait [2, 3, 13]", "begin [2]", "wait [2]", "begin [3]", "wait [3]", "begin [13]", "wait [13]",
                "begin [100]", "begin [4]", "wait [100]", "wait [4]",
            ], "\(log.withLock { $0 })")
        // The drainer counts its last batch done once it has looked at the queue again.
        #expect(await eventually { queue.load == (0, 0) })
    }

    /// A batch whose commit's answer was lost (`CommitUnknown`) may have been committed: each of
    /// its callers gets that error, and none is run again alone (that could do it twice).
    @Test func aBatchWhoseCommitIsUnknownIsNotRunAgain() async throws {
        let begun = Mutex<[[Int]]>([])
        let gate = DispatchSemaphore(value: 0)
        let writer = DispatchQueue(label: "batch-queue-unknown")
        let queue = BatchQueue<Int, Int>(
            schedule: { writer.async(execute: $0) },
            batchSize: { $0.count },
            pipelines: { _ in true },
            commitAhead: { batch in
                begun.withLock { $0.append(batch) }
                if batch == [0] { gate.wait() }
                return .sent(wait: {
                    if batch != [0] { throw CommitUnknown(store: "the test's store") }
                    return batch.map { .success($0) }
                })
            })
        let results = await Self.submitted(Array(0...3), to: queue, release: gate) { begun.withLock { $0 } == [[0]] }
        #expect(try results[0]?.get() == 0)
        for request in 1...3 { #expect(throws: CommitUnknown.self) { try results[request]?.get() } }
        #expect(begun.withLock { $0 } == [[0], [1, 2, 3]], "nothing run again")
    }
}

import Foundation
import Testing

@testable import EventLog

/// Signed notes as C2SP signed-note writes them: keys that read back from their text (whatever
/// characters their base64 holds), signatures that verify under their key and no other, and
/// checkpoints that parse from what was signed.
@Suite struct NoteKeyTests {
    @Test func keysReadBackAndSignNotesOnlyTheirVerifierOpens() throws {
        let body = Checkpoint(origin: "reel.ledger/test", size: 7, root: TreeHash.leaf([1, 2, 3])).body
        var previous: NoteKey?
        for _ in 0..<64 {
            let key = NoteKey(generatingFor: "reel.ledger/test")
            let read = try #require(NoteKey(text: key.text), "\(key.text)")
            #expect(read.verifierKey == key.verifierKey)
            let verifier = try #require(NoteVerifier(key.verifierKey), "\(key.verifierKey)")
            let note = try key.sign(body)
            #expect(verifier.open(note) == body)
            #expect(Checkpoint(body: body) == Checkpoint(origin: "reel.ledger/test", size: 7, root: TreeHash.leaf([1, 2, 3])))
            if let previous { #expect(NoteVerifier(previous.verifierKey)!.open(note) == nil) }
            #expect(verifier.open(note.replacingOccurrences(of: "\n7\n", with: "\n8\n")) == nil)
            previous = key
        }
        #expect(NoteKey(text: "PRIVATE+KEY+a+00000000+AA==") == nil)
        #expect(NoteVerifier("name+zz+AQ==") == nil)
    }

    /// A witness's cosignature (C2SP tlog-cosignature v1): it verifies under the witness's key on
    /// the body it cosigned and no other, carries its time (never zero), and a log's key opens
    /// nothing of it; a note with a line of the log's key that does not verify is malformed.
    @Test func cosignaturesVerifyOnTheirBodyAndAStrictOpenRefusesABadLine() throws {
        let body = Checkpoint(origin: "reel.ledger/test", size: 9, root: TreeHash.leaf([4])).body
        let log = NoteKey(generatingFor: "reel.ledger/test")
        let witness = NoteKey(generatingFor: "reel.witness/test", kind: .cosignature)
        let note = try log.sign(body)
        let cosigned = note + (try witness.cosign(body, time: 1_700_000_000))
        let verifier = try #require(NoteVerifier(witness.verifierKey))
        #expect(verifier.kind == .cosignature && NoteKey(text: witness.text)?.kind == .cosignature)
        #expect(verifier.cosignature(on: cosigned) == 1_700_000_000)
        #expect(verifier.cosignature(on: note) == nil && verifier.open(cosigned) == nil)
        #expect(verifier.cosignature(on: cosigned.replacingOccurrences(of: "\n9\n", with: "\n10\n")) == nil)
        #expect(verifier.cosignature(on: note + (try witness.cosign(body, time: 0))) == nil, "a timestamp is never zero")
        #expect(NoteVerifier(log.verifierKey)?.open(cosigned) == body, "the log's key leaves the cosignature alone")
        let line = try #require(note.split(separator: "\n").last)
        let bad = note + String(line.dropLast(4)) + (line.hasSuffix("AA==") ? "BB==" : "AA==") + "\n"
        #expect(NoteVerifier(log.verifierKey)?.strictlyOpen(bad) == .malformed)
        #expect(NoteVerifier(log.verifierKey)?.strictlyOpen(try NoteKey(generatingFor: "reel.ledger/test").sign(body)) == .unsigned)
        #expect(NoteVerifier("reel\u{1b}[2J+00000000+AQ==") == nil)
    }
}

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
}

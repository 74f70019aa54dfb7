import Reel
import Testing

/// Each limit is said in the words the handbook uses ("Commands").
@Suite struct InputLimitTests {
    @Test func limitsAreSaidInWords() {
        #expect(InputLimit.words(InputLimit.photo) == "5,000,000 bytes (5 MB)")
        #expect(InputLimit.words(InputLimit.export) == "536,870,912 bytes (512 MiB)")
        #expect(InputLimit.words(InputLimit.list) == "67,108,864 bytes (64 MiB)")
        #expect(InputLimit.words(InputLimit.credential) == "4,096 bytes (4 KiB)")
        #expect(InputLimit.words(999) == "999 bytes")
    }
}

/// Passwords of URLs in text about to be shown: a store URL typed where it does not belong is
/// quoted back in an error, and its password must not be.
public enum URLPasswords {
    /// `message` with the password of any URL in it (`scheme://user:PASSWORD@`) written `***`:
    /// ArgumentParser (behind `reel`) quotes a misplaced argument as it was typed (`reel store migrate
    /// postgres://u:pw@h/d`, without `--store`), and a store URL may be one.
    ///
    /// What is hidden is what `SCHEME://USER:…@` spans, up to the last `@` before a space (the
    /// expression `[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:[^\s]*@`), found in one pass: a regular
    /// expression took 14 s for an argument of 20,000 letters, trying each as a scheme's start.
    public static func hidden(in message: String) -> String {
        let bytes = Array(message.utf8)
        guard bytes.count >= 3 else { return message }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isSchemeByte(_ byte: UInt8) -> Bool {
            isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        func isUserByte(_ byte: UInt8) -> Bool {
            !isSpace(byte) && byte != UInt8(ascii: ":") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "@")
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0  // bytes before this are in `output`
        // The run without spaces last looked at: where it ends, and its last `@` (a later URL in
        // the same run needs no second look).
        var run: (end: Int, lastAt: Int?)?
        var index = 1
        while index + 2 < bytes.count {
            guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else {
                index += 1
                continue
            }
            // A scheme ends here: scheme bytes back to the previous other byte, one a letter.
            var start = index, letter = false
            while start > copied, isSchemeByte(bytes[start - 1]) {
                start -= 1
                if isLetter(bytes[start]) { letter = true }
            }
            var user = index + 3
            while user < bytes.count, isUserByte(bytes[user]) { user += 1 }
            guard letter, user < bytes.count, bytes[user] == UInt8(ascii: ":") else {
                index += 3
                continue
            }
            if (run?.end ?? 0) <= user {
                var end = user, lastAt: Int?
                while end < bytes.count, !isSpace(bytes[end]) {
                    if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                    end += 1
                }
                run = (end, lastAt)
            }
            guard let at = run?.lastAt, at > user else {
                index = user + 1
                continue
            }
            output += bytes[copied...user]
            output += Array("***@".utf8)
            copied = at + 1
            index = at + 1
        }
        guard copied > 0 else { return message }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}

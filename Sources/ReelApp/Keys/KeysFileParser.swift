/// `keys.toml` read as TOML 1.0, in Swift, in one pass over its bytes: the tables and the values
/// it gives, each with the line it is on. Whatever the bytes are (a NUL, invalid UTF-8, `[[[`, a
/// string never closed, arrays nested a thousand deep) the answer is a `KeyBindingError` naming
/// the line, never a crash, a hang or a stack overflow; the time is linear in the file's length.
///
/// TOMLKit (toml++) read the file before: its C++ parser aborted the process with an assertion
/// on `[[[`. A key bindings file needs little of TOML, but a person may write any of it, so all
/// of its syntax is read here; only a value's kind matters beyond strings, arrays and tables (a
/// number or a date is "a number or a date", never converted).
///
/// ```swift
/// let statements = try KeysFileParser.parse(Array("[keys]\ndown = [\"j\", \"n\"]\n".utf8))
/// // [.table(path: ["keys"], line: 1, list: false), .value(path: ["down"], .array([...]), line: 2)]
/// ```
struct KeysFileParser {
    /// What the file says, in its order: a table header, or a name given a value (relative to the
    /// table the last header opened).
    enum Statement: Equatable {
        case table(path: [String], line: Int, list: Bool)
        case value(path: [String], Value, line: Int)
    }

    /// A value, as far as key bindings care.
    indirect enum Value: Equatable {
        case string(String)
        case array([Value])
        /// An inline table (`{ down = "n" }`): its members, each with its dotted name.
        case table([Member])
        /// A valid value of another kind: "a number or a date", "true or false".
        case other(String)
    }

    struct Member: Equatable {
        let path: [String]
        let value: Value
        let line: Int
    }

    /// Arrays and inline tables nest at most this deep (a binding needs one level).
    static let deepest = 8

    /// How much of a person's text an error quotes: enough to recognise it, never a whole file.
    static let quotedCharacters = 40

    /// `text` as an error quotes it: at most `quotedCharacters` characters (then `…`), control and
    /// format characters (escape sequences, bidi overrides) written as `\u{…}`, so the one line on
    /// stderr stays one short line and nothing in it acts on the terminal.
    static func quoted(_ text: String) -> String {
        var out = ""
        var count = 0
        for character in text {
            if count == quotedCharacters { return out + "…" }
            count += 1
            if character.unicodeScalars.contains(where: { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) {
                for scalar in character.unicodeScalars { out += "\\u{\(String(scalar.value, radix: 16))}" }
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `20000` as `20,000`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0, digit != "-" { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// The statements of the file `bytes`.
    static func parse(_ bytes: [UInt8]) throws(KeyBindingError) -> [Statement] {
        try checkCharacters(bytes)
        var parser = KeysFileParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }  // a byte order mark
        return try parser.document()
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 1
    private var depth = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: - Characters

    /// UTF-8 throughout, and no control character but tab and line ends (TOML allows none, not
    /// even in a comment): checked once, before any parsing, so the parser reads valid text.
    private static func checkCharacters(_ bytes: [UInt8]) throws(KeyBindingError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var carriageReturn = false
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if carriageReturn, scalar != "\n" { throw failure(line, "a carriage return not followed by a line feed") }
                carriageReturn = scalar == "\r"
                if scalar == "\n" {
                    line += 1
                } else if scalar != "\t", scalar != "\r", scalar.value < 0x20 || scalar.value == 0x7F {
                    let code = String(scalar.value, radix: 16, uppercase: true)
                    throw failure(line, "a control character (U+\(String(repeating: "0", count: 4 - code.count) + code)); TOML allows only tabs")
                }
            case .emptyInput:
                if carriageReturn { throw failure(line, "a carriage return not followed by a line feed") }
                return
            case .error:
                throw KeyBindingError(line: line, message: "not UTF-8 text (TOML is UTF-8)")
            }
        }
    }

    private static func failure(_ line: Int, _ why: String) -> KeyBindingError {
        KeyBindingError(line: line, message: "not TOML: \(why)")
    }

    private func failure(_ why: String) -> KeyBindingError { Self.failure(line, why) }

    private var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    private func ahead(_ offset: Int) -> UInt8? { at + offset < bytes.count ? bytes[at + offset] : nil }

    /// The character at the parser, as an error names it: `'x'`, or the end of the line or file.
    private var found: String {
        guard let byte = peek else { return "the end of the file" }
        if byte == 0x0A || byte == 0x0D { return "the end of the line" }
        var end = at + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(Self.quoted(String(decoding: bytes[at..<end], as: UTF8.self)))'"
    }

    // MARK: - Lines

    private mutating func document() throws(KeyBindingError) -> [Statement] {
        var statements: [Statement] = []
        while true {
            skipBlanks()
            guard let byte = peek else { return statements }
            switch byte {
            case 0x0A, 0x0D, UInt8(ascii: "#"):
                try endOfLine()
            case UInt8(ascii: "["):
                statements.append(try header())
                try endOfLine()
            default:
                let (path, parsed, line) = try keyValue()
                statements.append(.value(path: path, parsed, line: line))
                try endOfLine()
            }
        }
    }

    /// Blanks, a comment, then the end of the line (or of the file).
    private mutating func endOfLine() throws(KeyBindingError) {
        skipBlanks()
        if peek == UInt8(ascii: "#") {
            while let byte = peek, byte != 0x0A, byte != 0x0D { at += 1 }
        }
        switch peek {
        case nil: return
        case 0x0A:
            at += 1
            line += 1
        case 0x0D:  // followed by a line feed (checked)
            at += 2
            line += 1
        default: throw failure("unexpected \(found) after the value; one name = value a line")
        }
    }

    private mutating func skipBlanks() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { at += 1 }
    }

    /// Blanks, line ends and comments: what may come between an array's values.
    private mutating func skipBlankLines() {
        while let byte = peek {
            switch byte {
            case 0x20, 0x09: at += 1
            case 0x0A:
                at += 1
                line += 1
            case 0x0D:
                at += 2
                line += 1
            case UInt8(ascii: "#"):
                while let byte = peek, byte != 0x0A, byte != 0x0D { at += 1 }
            default: return
            }
        }
    }

    /// `[name]` or `[[name]]` (a list of tables), names dotted.
    private mutating func header() throws(KeyBindingError) -> Statement {
        let line = line
        let list = ahead(1) == UInt8(ascii: "[")
        at += list ? 2 : 1
        skipBlanks()
        let path = try dottedKey()
        skipBlanks()
        for _ in 0..<(list ? 2 : 1) {
            guard peek == UInt8(ascii: "]") else { throw failure("a table's name is not closed by \(list ? "]]" : "]"), found \(found)") }
            at += 1
        }
        return .table(path: path, line: line, list: list)
    }

    // MARK: - Names

    /// `a`, `"a b"`, `'a'`, or several joined by dots (`keys.down`).
    /// `NAME = VALUE` from here: the dotted name, the value and the line it began on.
    private mutating func keyValue() throws(KeyBindingError) -> (path: [String], value: Value, line: Int) {
        let line = line
        let path = try dottedKey()
        skipBlanks()
        guard peek == UInt8(ascii: "=") else { throw failure("expected = after the name, found \(found)") }
        at += 1
        skipBlanks()
        return (path, try value(), line)
    }

    private mutating func dottedKey() throws(KeyBindingError) -> [String] {
        var path = [try simpleKey()]
        while true {
            skipBlanks()
            guard peek == UInt8(ascii: ".") else { return path }
            at += 1
            skipBlanks()
            path.append(try simpleKey())
        }
    }

    private mutating func simpleKey() throws(KeyBindingError) -> String {
        switch peek {
        case UInt8(ascii: "\""): return try basicString()
        case UInt8(ascii: "'"): return try literalString()
        default:
            let start = at
            while let byte = peek, Self.isBare(byte) { at += 1 }
            guard at > start else { throw failure("expected a name, found \(found)") }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }
    }

    /// A bare name's characters: ASCII letters, digits, `_` and `-`.
    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    // MARK: - Values

    private mutating func value() throws(KeyBindingError) -> Value {
        switch peek {
        case UInt8(ascii: "\""):
            return .string(ahead(1) == UInt8(ascii: "\"") && ahead(2) == UInt8(ascii: "\"") ? try multilineString(literal: false) : try basicString())
        case UInt8(ascii: "'"):
            return .string(ahead(1) == UInt8(ascii: "'") && ahead(2) == UInt8(ascii: "'") ? try multilineString(literal: true) : try literalString())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return try inlineTable()
        default: return try scalar()
        }
    }

    private mutating func nest() throws(KeyBindingError) {
        depth += 1
        guard depth <= Self.deepest else { throw failure("arrays and tables nested more than \(Self.deepest) deep") }
    }

    private mutating func array() throws(KeyBindingError) -> Value {
        let opened = line
        try nest()
        at += 1
        var items: [Value] = []
        while true {
            skipBlankLines()
            if peek == UInt8(ascii: "]") { break }
            guard peek != nil else { throw Self.failure(opened, "the array opened on this line is not closed by ]") }
            items.append(try value())
            skipBlankLines()
            if peek == UInt8(ascii: ",") {
                at += 1
            } else if peek == UInt8(ascii: "]") {
                break
            } else if peek == nil {
                throw Self.failure(opened, "the array opened on this line is not closed by ]")
            } else {
                throw failure("expected , or ] in the array, found \(found)")
            }
        }
        at += 1
        depth -= 1
        return .array(items)
    }

    /// `{ name = value, … }`, on one line (TOML 1.0).
    private mutating func inlineTable() throws(KeyBindingError) -> Value {
        try nest()
        at += 1
        skipBlanks()
        var members: [Member] = []
        if peek == UInt8(ascii: "}") {
            at += 1
            depth -= 1
            return .table(members)
        }
        while true {
            let (path, parsed, line) = try keyValue()
            members.append(Member(path: path, value: parsed, line: line))
            skipBlanks()
            if peek == UInt8(ascii: ",") {
                at += 1
                skipBlanks()
            } else if peek == UInt8(ascii: "}") {
                at += 1
                depth -= 1
                return .table(members)
            } else {
                throw failure("expected , or } in the inline table, found \(found)")
            }
        }
    }

    /// A number, a date or time, `true` or `false`: read as far as its kind. A bare word is no
    /// value (a key is written in quotes).
    private mutating func scalar() throws(KeyBindingError) -> Value {
        let start = at
        while let byte = peek, Self.isBare(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") {
            at += 1
            // A date and a time may be separated by a space (1979-05-27 07:32:00).
            if at - start == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"), peek == 0x20,
                let next = ahead(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
            {
                at += 1
            }
        }
        guard at > start else { throw failure("expected a value, found \(found)") }
        let word = String(decoding: bytes[start..<at], as: UTF8.self)
        if word == "true" || word == "false" { return .other("true or false") }
        guard let first = word.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+")
            || first == UInt8(ascii: "-") || ["inf", "nan"].contains(word)
        else {
            throw failure("'\(Self.quoted(word))' is not a value (text goes in quotes: \"\(Self.quoted(word))\")")
        }
        return .other("a number or a date")
    }

    // MARK: - Strings

    /// `"…"` with TOML's escapes, on one line.
    private mutating func basicString() throws(KeyBindingError) -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            switch peek {
            case nil, 0x0A, 0x0D: throw failure("a string is not closed by \" on its line")
            case UInt8(ascii: "\""):
                at += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &out)
            case let byte?:
                out.append(byte)
                at += 1
            }
        }
    }

    /// `'…'`, as written, on one line.
    private mutating func literalString() throws(KeyBindingError) -> String {
        at += 1
        let start = at
        while true {
            switch peek {
            case nil, 0x0A, 0x0D: throw failure("a string is not closed by ' on its line")
            case UInt8(ascii: "'"):
                at += 1
                return String(decoding: bytes[start..<(at - 1)], as: UTF8.self)
            default: at += 1
            }
        }
    }

    /// `"""…"""` (escapes, and a backslash at a line's end joins it to the next) or `'''…'''`.
    private mutating func multilineString(literal: Bool) throws(KeyBindingError) -> String {
        let opened = line
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        at += 3
        // A line end right after the opening quotes is not part of the text.
        if peek == 0x0A {
            at += 1
            line += 1
        } else if peek == 0x0D {
            at += 2
            line += 1
        }
        var out: [UInt8] = []
        while true {
            switch peek {
            case nil:
                throw Self.failure(opened, "the string opened on this line is not closed by \(literal ? "'''" : "\"\"\"")")
            case quote where ahead(1) == quote && ahead(2) == quote:
                var run = 3
                while ahead(run) == quote { run += 1 }
                guard run <= 5 else { throw failure("too many quotes closing a string") }
                out += [UInt8](repeating: quote, count: run - 3)
                at += run
                return String(decoding: out, as: UTF8.self)
            case 0x0A:
                out.append(0x0A)
                at += 1
                line += 1
            case 0x0D:
                out.append(0x0A)
                at += 2
                line += 1
            case UInt8(ascii: "\\") where !literal:
                if let next = ahead(1), next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D {
                    // A line-ending backslash: the line end and the blanks after it are dropped.
                    at += 1
                    skipBlanks()
                    guard peek == 0x0A || peek == 0x0D else { throw failure("a backslash in a string must end its line or escape a character") }
                    skipBlankLines()
                } else {
                    try escape(into: &out)
                }
            case let byte?:
                out.append(byte)
                at += 1
            }
        }
    }

    /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, at the backslash.
    private mutating func escape(into out: inout [UInt8]) throws(KeyBindingError) {
        at += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "r"): 0x0D,
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
        ]
        guard let letter = peek else { throw failure("a string is not closed") }
        if let byte = simple[letter] {
            out.append(byte)
            at += 1
            return
        }
        guard letter == UInt8(ascii: "u") || letter == UInt8(ascii: "U") else { throw failure("\\\(found.dropFirst().dropLast()) is not an escape TOML knows") }
        let digits = letter == UInt8(ascii: "u") ? 4 : 8
        var value: UInt32 = 0
        for offset in 1...digits {
            guard let byte = ahead(offset), let digit = Self.hexadecimal(byte) else {
                throw failure("\\\(Character(Unicode.Scalar(letter))) takes \(digits) hexadecimal digits")
            }
            value = value << 4 | digit
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("\\\(Character(Unicode.Scalar(letter)))\(String(value, radix: 16)) is not a character") }
        out += Array(String(Character(scalar)).utf8)
        at += 1 + digits
    }

    private static func hexadecimal(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

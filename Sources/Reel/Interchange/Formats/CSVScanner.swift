/// Reads RFC 4180 records one at a time from UTF-8 bytes (after a byte order mark, if any):
/// fields separated by commas, records by CRLF, LF or a lone CR; a quoted field may hold commas,
/// line breaks and quotes written `""`. Spaces around a quoted field are allowed and dropped.
/// Empty lines between records are skipped. Every record remembers the line it starts on.
///
/// The scanner does not check UTF-8 (`CSVTable` checks the whole file first); fields are decoded
/// with replacement characters.
struct CSVScanner {
    /// One record: the 1-based line it starts on, and its fields.
    struct Record: Sendable, Equatable {
        let line: Int
        let fields: [String]
        /// Where the record's bytes begin and end (the line break after it excluded).
        let range: Range<Int>
    }

    private let bytes: [UInt8]
    private var index: Int
    private var line = 1
    private var lineStart: Int

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let space = UInt8(ascii: " ")
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        index = TextPosition.byteOrderMarkLength(bytes)
        lineStart = index
    }

    /// Where the text begins (after the byte order mark).
    var textStart: Int { TextPosition.byteOrderMarkLength(bytes) }

    /// The next record, or `nil` at the end of the text.
    mutating func next() throws(InterchangeError) -> Record? {
        while index < bytes.count, bytes[index] == Self.lf || bytes[index] == Self.cr { consumeLineBreak() }
        guard index < bytes.count else { return nil }
        let startLine = line
        let start = index
        var fields: [String] = []
        var field: [UInt8] = []
        while true {
            field.removeAll(keepingCapacity: true)
            var first = index
            while first < bytes.count, bytes[first] == Self.space { first += 1 }
            if first < bytes.count, bytes[first] == Self.quote {
                try readQuoted(openingAt: first, into: &field)
            } else {
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == Self.comma || byte == Self.lf || byte == Self.cr { break }
                    if byte == Self.quote { throw .quoteInUnquotedField(line: line, column: column(of: index)) }
                    field.append(byte)
                    index += 1
                }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            guard index < bytes.count, bytes[index] == Self.comma else { break }
            index += 1
        }
        let end = index
        if index < bytes.count { consumeLineBreak() }
        return Record(line: startLine, fields: fields, range: start..<end)
    }

    /// Reads a quoted field whose opening quote is at `open`, leaving `index` at the comma or line
    /// break after it (or the end of the text).
    private mutating func readQuoted(openingAt open: Int, into field: inout [UInt8]) throws(InterchangeError) {
        let openLine = line
        let openColumn = column(of: open)
        index = open + 1
        while true {
            guard index < bytes.count else { throw .unterminatedQuote(line: openLine, column: openColumn) }
            let byte = bytes[index]
            if byte == Self.quote {
                if index + 1 < bytes.count, bytes[index + 1] == Self.quote {
                    field.append(Self.quote)
                    index += 2
                    continue
                }
                index += 1
                break
            }
            if byte == Self.lf || (byte == Self.cr && (index + 1 >= bytes.count || bytes[index + 1] != Self.lf)) {
                line += 1
                lineStart = index + 1
            }
            field.append(byte)
            index += 1
        }
        while index < bytes.count, bytes[index] == Self.space { index += 1 }
        if index < bytes.count, bytes[index] != Self.comma, bytes[index] != Self.lf, bytes[index] != Self.cr {
            throw .textAfterClosingQuote(line: line, column: column(of: index))
        }
    }

    /// Steps over one line break (CRLF, LF or CR) at `index`.
    private mutating func consumeLineBreak() {
        if bytes[index] == Self.cr, index + 1 < bytes.count, bytes[index + 1] == Self.lf { index += 1 }
        index += 1
        line += 1
        lineStart = index
    }

    private func column(of offset: Int) -> Int {
        TextPosition.column(of: offset, lineStart: lineStart, in: bytes)
    }
}

/// The terminal's answers to `TerminalProbe`'s queries, parsed from the bytes it sent back: a pure
/// function of those bytes, so every answer (and every garbled one) can be tested as a byte string.
///
/// Bytes that are not an answer are what the person typed while the probe listened (a key, an
/// arrow's escape sequence): they are kept in `typedAhead`, in order, not thrown away. A sequence
/// cut off at the end is kept in `unfinished`, for more bytes to complete it.
struct ProbeAnswers: Equatable, Sendable {
    /// The answer to the kitty graphics query (`ESC _ G i=31;OK ESC \`).
    enum Kitty: Equatable, Sendable {
        case ok
        /// The terminal knows the protocol but refused the query's image (the message, printable).
        case error(String)
    }

    /// A size in pixels (the window's, from `CSI 4;h;w t`).
    struct Pixels: Equatable, Sendable {
        var width: Int
        var height: Int
    }

    /// The image id of the kitty query, so its answer is told from another program's.
    static let kittyQueryID = 31

    var kitty: Kitty?
    /// Primary device attributes (`CSI ? 62;4;22 c`); a 4 among them means sixel.
    var deviceAttributes: [Int]?
    /// XTVERSION (`DCS > | name ST`), printable ASCII only.
    var version: String?
    /// `CSI 6;h;w t`: one cell in pixels.
    var cellPixels: CellSize?
    /// `CSI 4;h;w t`: the text area in pixels.
    var windowPixels: Pixels?
    /// DECRPM for mode 2026 (`CSI ? 2026;Ps $ y`): 0 not recognized, 1 set, 2 reset,
    /// 3 permanently set, 4 permanently reset.
    var synchronizedOutput: Int?
    /// Bytes that answered nothing: typed ahead.
    var typedAhead: [UInt8] = []
    /// A sequence begun at the end and not finished.
    var unfinished: [UInt8] = []

    var hasSixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// Whether the terminal answered anything at all.
    var answeredAnything: Bool {
        kitty != nil || deviceAttributes != nil || version != nil || cellPixels != nil || windowPixels != nil
            || synchronizedOutput != nil
    }

    private static let escape: UInt8 = 0x1B

    static func parse(_ bytes: [UInt8]) -> ProbeAnswers {
        var answers = ProbeAnswers()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == escape else {
                answers.typedAhead.append(bytes[index])
                index += 1
                continue
            }
            guard index + 1 < bytes.count else {
                answers.unfinished = Array(bytes[index...])
                break
            }
            let introducer = bytes[index + 1]
            let end: Int?
            switch introducer {
            case UInt8(ascii: "["): end = answers.controlSequence(bytes, from: index)
            case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                end = answers.controlString(bytes, from: index)
            case escape:
                // The Escape key, typed ahead; the second ESC may begin an answer.
                answers.typedAhead.append(escape)
                index += 1
                continue
            default:
                // ESC and a key: Alt+key typed ahead.
                answers.typedAhead += bytes[index...index + 1]
                index += 2
                continue
            }
            guard let end else {
                answers.unfinished = Array(bytes[index...])
                break
            }
            index = end
        }
        return answers
    }

    /// A CSI sequence from `start` (its ESC): recognized as an answer or kept as typed ahead.
    /// Returns the index after it, nil when the bytes end first.
    private mutating func controlSequence(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 2
        while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        let final = bytes[index]
        guard (0x40...0x7E).contains(final) else {
            // Not a CSI sequence after all: what came so far was typed.
            typedAhead += bytes[start..<index]
            return index
        }
        let body = bytes[(start + 2)..<index]
        if !answer(body: Array(body), final: final) {
            typedAhead += bytes[start...index]
        }
        return index + 1
    }

    /// Takes a CSI body (parameters and intermediates) and final byte as an answer; false when it
    /// is none of the answers the probe asks for.
    private mutating func answer(body: [UInt8], final: UInt8) -> Bool {
        var body = body[...]
        var marker: UInt8?
        if let first = body.first, (0x3C...0x3F).contains(first) {
            marker = first
            body = body.dropFirst()
        }
        let parameterEnd = body.firstIndex { !(0x30...0x3B).contains($0) } ?? body.endIndex
        let intermediates = Array(body[parameterEnd...])
        guard intermediates.allSatisfy({ (0x20...0x2F).contains($0) }) else { return false }
        guard let parameters = Self.numbers(body[..<parameterEnd]) else { return false }
        switch (marker, intermediates, final) {
        case (UInt8(ascii: "?"), [], UInt8(ascii: "c")):
            deviceAttributes = parameters
            return true
        case (UInt8(ascii: "?"), [UInt8(ascii: "$")], UInt8(ascii: "y")) where parameters.count == 2 && parameters[0] == 2026:
            synchronizedOutput = parameters[1]
            return true
        case (nil, [], UInt8(ascii: "t")) where parameters.count == 3 && parameters[0] == 6:
            cellPixels = CellSize(width: parameters[2], height: parameters[1])
            return true
        case (nil, [], UInt8(ascii: "t")) where parameters.count == 3 && parameters[0] == 4:
            if parameters[1] > 0, parameters[2] > 0 { windowPixels = Pixels(width: parameters[2], height: parameters[1]) }
            return true
        default:
            return false
        }
    }

    /// `1;22;4` as numbers (an empty parameter is 0); nil for anything else (sub-parameters,
    /// absurd lengths).
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int]? {
        guard !bytes.isEmpty else { return [] }
        var numbers: [Int] = []
        for field in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard field.count <= 9, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        return numbers
    }

    /// A control string (DCS, APC, OSC, PM, SOS) from `start`, ended by ST (`ESC \`) or, for OSC,
    /// BEL. Kitty's and XTVERSION's answers are taken; other strings are dropped (nobody types
    /// them). Returns the index after it, nil when the bytes end first.
    private mutating func controlString(_ bytes: [UInt8], from start: Int) -> Int? {
        let introducer = bytes[start + 1]
        var index = start + 2
        while index < bytes.count {
            if bytes[index] == 0x07 && introducer == UInt8(ascii: "]") {
                return index + 1
            }
            if bytes[index] == Self.escape {
                guard index + 1 < bytes.count else { return nil }
                if bytes[index + 1] == UInt8(ascii: "\\") {
                    take(string: Array(bytes[(start + 2)..<index]), introducer: introducer)
                    return index + 2
                }
            }
            index += 1
        }
        return nil
    }

    private mutating func take(string: [UInt8], introducer: UInt8) {
        if introducer == UInt8(ascii: "_"), string.first == UInt8(ascii: "G") {
            let content = string.dropFirst()
            let semicolon = content.firstIndex(of: UInt8(ascii: ";")) ?? content.endIndex
            let keys = content[..<semicolon].split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) }
            guard keys.contains("i=\(Self.kittyQueryID)") else { return }
            let message = String(decoding: content[semicolon...].dropFirst(), as: UTF8.self)
            kitty = message == "OK" ? .ok : .error(TerminalCapabilities.printable(message))
        } else if introducer == UInt8(ascii: "P"), string.starts(with: [UInt8(ascii: ">"), UInt8(ascii: "|")]) {
            let name = TerminalCapabilities.printable(String(decoding: string.dropFirst(2), as: UTF8.self))
            version = name.isEmpty ? nil : name
        }
    }
}

import Reel

/// The year filter being typed (`y` on a browsed tab): up to four digits; `enter` applies it
/// (empty: no year), `esc` drops it.
public struct YearField: Sendable, Equatable {
    public var text: String

    public init(text: String = "") {
        self.text = text
    }

    /// A digit added (at most four), or the last one taken back.
    public mutating func type(_ key: Key) {
        switch key {
        case .character(let c) where c.isASCII && c.isNumber && text.count < 4: text.append(c)
        case .backspace: if !text.isEmpty { text.removeLast() }
        default: break
        }
    }

    /// The year typed: `nil` for none; a year TMDb cannot have is refused with why.
    public var year: Result<Int?, YearError> {
        guard !text.isEmpty else { return .success(nil) }
        guard let year = Int(text), TitleListQuery.years.contains(year) else { return .failure(YearError(text: text)) }
        return .success(year)
    }

    public struct YearError: Error, Sendable, Equatable {
        public let text: String
        public var message: String { "\(text) is not a year TMDb lists (\(TitleListQuery.years.lowerBound) to \(TitleListQuery.years.upperBound))" }
    }
}

/// A misbehaviour the fake server injects into the next matching requests.
public struct Fault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Answer with this status and TMDb's body for it (429 code 25, 500 code 11, 503 code 9, …),
        /// with `Retry-After` when given (`"2"` or an HTTP date).
        case status(Int, retryAfter: String?)
        /// 200 with a body that is not JSON.
        case malformedJSON
        /// 200 with valid JSON whose `id` is a string.
        case wrongType
        /// Announce the whole body, send half of it, close.
        case truncatedBody
        /// 200 with the first half of the body and a `Content-Length` that says so: a file cut
        /// short that HTTP cannot notice (a JPEG without its end, JSON that stops mid-value).
        case halfBody
        /// Close the connection without answering (RST).
        case connectionReset
        /// Wait this many milliseconds before answering normally.
        case latency(Int)
        /// Answer normally, but with `hostileText` around every title, name, overview and other
        /// text a person reads: terminal escapes, CR/LF, a tab, bidi overrides, C1 and DEL.
        case hostileText
        /// Answer normally, but with `markupPrefix` and `markupSuffix` around every text a person
        /// reads: HTML that runs script (and breaks out of an attribute) if a page inserts it as
        /// markup rather than text.
        case markupText
        /// Answer normally, but with every title and name a spreadsheet formula,
        /// `=HYPERLINK("https://evil.example/","TITLE")`, as in a CSV injection.
        case formulaText
        /// Answer normally, but with every title and name one of `wideTitles` (chosen by the
        /// text it replaces, so the same title always reads the same): Japanese, Korean, emoji,
        /// combining accents, Hebrew and Arabic, for tests of layout by terminal columns.
        case wideText
        /// OMDb's 200 with `{"Response":"False","Error":MESSAGE}`, as it answers an id or title
        /// it does not have ("Movie not found!", "Incorrect IMDb ID.") or any other trouble.
        case omdbError(String)
        /// OMDb's 401 "Request limit reached!": the key's daily requests are spent.
        case omdbLimit
        /// OMDb's 401 "Invalid API key!".
        case omdbInvalidKey

        /// Whether the fault applies to an image (below `/t/p/`): the faults of HTTP and of the
        /// body's bytes do; those that rewrite JSON or its texts do not (an image request never
        /// uses them up), nor OMDb's own.
        public var appliesToImages: Bool {
            switch self {
            case .status, .truncatedBody, .halfBody, .connectionReset, .latency: true
            case .malformedJSON, .wrongType, .hostileText, .markupText, .formulaText, .wideText, .omdbError, .omdbLimit, .omdbInvalidKey: false
            }
        }

        /// Whether the fault applies to TMDb's API (below `/3`): all but OMDb's own, which only an
        /// OMDb request uses up. (Every kind applies to OMDb's requests.)
        public var appliesToTMDb: Bool {
            switch self {
            case .omdbError, .omdbLimit, .omdbInvalidKey: false
            default: true
            }
        }
    }

    /// What `hostileText` wraps each text in: `prefix + text + suffix`. It sets the window title
    /// (OSC 0, ended by BEL), clears the screen, paints red (SGR), forges a line (CR LF), and hides
    /// direction (RLO, LRI), with a C1 CSI and a DEL for good measure.
    public static let hostilePrefix = "\u{1B}]0;reel-pwned\u{07}\u{1B}[31m"
    public static let hostileSuffix = "\u{1B}[2J\r\nFORGED LINE\t\u{202E}txt.exe\u{2066}\u{9B}1m\u{7F}"

    /// What `markupText` wraps each text in: a script element, an image whose error runs script,
    /// and a quote that would end an attribute. A page that shows them as text is safe; one that
    /// runs them sets `window.reelPwned`.
    public static let markupPrefix = "<script>window.reelPwned=1</script><img src=x onerror=\"window.reelPwned=2\">\"'>"
    public static let markupSuffix = "<b onmouseover=\"window.reelPwned=3\">!</b>"

    /// What `wideText` names titles and people: scripts and sequences that take other than one
    /// terminal column per character.
    public static let wideTitles = [
        "千と千尋の神隠し",  // ideographs and hiragana: 2 columns each
        "기생충",  // Hangul syllables
        "올드보이 오리지널 무삭제 감독판 특별 한정 리마스터 에디션",  // long Korean, with spaces to wrap at
        "カウボーイビバップ 天国の扉 ＤＶＤ",  // katakana, fullwidth Latin
        "🎬 Movie Night 🍿🍿",  // emoji presentation
        "👨\u{200D}👩\u{200D}👧 Family Trip 🇯🇵🇰🇷",  // a ZWJ family, flags
        "❤\u{FE0F} Love Actually 👍🏽",  // VS16, a skin tone
        "Ame\u{301}lie Poulain, le Fabuleux Destin",  // a combining accent
        "ואלס עם באשיר",  // Hebrew
        "الرسالة",  // Arabic
    ]

    public var kind: Kind
    /// How many requests it applies to.
    public var count: Int
    /// Only requests whose path starts with this: below `/3` for the API (`/movie`), whole for
    /// images (`/t/p/`, `/t/p/w342`), and for OMDb `/omdb/` followed by the IMDb id asked for
    /// (`/omdb/tt0137523`; just `/omdb/` when asked by title), so `/omdb` takes any OMDb request
    /// and `/omdb/tt0137523` one title's. Nil: the next request the kind applies to, whichever
    /// of TMDb's API, its images and OMDb it is.
    public var pathPrefix: String?

    public init(_ kind: Kind, count: Int = 1, pathPrefix: String? = nil) {
        self.kind = kind
        self.count = count
        self.pathPrefix = pathPrefix
    }

    /// Reads a fault from control-request parameters:
    /// `kind=status&status=429&retry_after=2&count=3&path=/movie`,
    /// `kind=malformed|wrong-type|truncate|half|reset|hostile|markup|formula|wide`, `kind=latency&ms=500`,
    /// and OMDb's `kind=omdb-error&message=…` (default "Movie not found!"), `omdb-limit`, `omdb-invalid-key`.
    public init?(parameters p: [String: String]) {
        let count = p["count"].flatMap(Int.init) ?? 1
        let prefix = p["path"].flatMap { $0.isEmpty ? nil : $0 }
        switch p["kind"] {
        case "status":
            guard let status = p["status"].flatMap(Int.init), (400...599).contains(status) else { return nil }
            self.init(.status(status, retryAfter: p["retry_after"]), count: count, pathPrefix: prefix)
        case "malformed": self.init(.malformedJSON, count: count, pathPrefix: prefix)
        case "wrong-type": self.init(.wrongType, count: count, pathPrefix: prefix)
        case "truncate": self.init(.truncatedBody, count: count, pathPrefix: prefix)
        case "half": self.init(.halfBody, count: count, pathPrefix: prefix)
        case "reset": self.init(.connectionReset, count: count, pathPrefix: prefix)
        case "hostile": self.init(.hostileText, count: count, pathPrefix: prefix)
        case "markup": self.init(.markupText, count: count, pathPrefix: prefix)
        case "formula": self.init(.formulaText, count: count, pathPrefix: prefix)
        case "wide": self.init(.wideText, count: count, pathPrefix: prefix)
        case "omdb-error": self.init(.omdbError(p["message"].flatMap { $0.isEmpty ? nil : $0 } ?? "Movie not found!"), count: count, pathPrefix: prefix)
        case "omdb-limit": self.init(.omdbLimit, count: count, pathPrefix: prefix)
        case "omdb-invalid-key": self.init(.omdbInvalidKey, count: count, pathPrefix: prefix)
        case "latency":
            guard let ms = p["ms"].flatMap(Int.init), ms >= 0 else { return nil }
            self.init(.latency(ms), count: count, pathPrefix: prefix)
        default: return nil
        }
    }
}

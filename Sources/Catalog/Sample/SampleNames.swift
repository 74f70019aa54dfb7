/// Native language names and English country names for the codes the sample catalog uses, as
/// TMDb's `/configuration/languages` and `/configuration/countries` give them.
enum SampleNames {
    static let languages: [String: (english: String, native: String)] = [
        "en": ("English", "English"), "de": ("German", "Deutsch"), "fr": ("French", "Français"),
        "es": ("Spanish", "Español"), "it": ("Italian", "Italiano"), "ja": ("Japanese", "日本語"),
        "ko": ("Korean", "한국어/조선말"), "zh": ("Mandarin", "普通话"), "cn": ("Cantonese", "广州话 / 廣州話"),
        "hi": ("Hindi", "हिन्दी"), "ru": ("Russian", "Pусский"), "pt": ("Portuguese", "Português"),
        "sv": ("Swedish", "svenska"), "da": ("Danish", "Dansk"), "no": ("Norwegian", "Norsk"),
        "nl": ("Dutch", "Nederlands"), "pl": ("Polish", "Polski"), "la": ("Latin", "Latin"),
        "ar": ("Arabic", "العربية"), "he": ("Hebrew", "עִבְרִית"), "tr": ("Turkish", "Türkçe"),
        "uk": ("Ukrainian", "Український"), "cs": ("Czech", "Český"), "hu": ("Hungarian", "Magyar"),
        "el": ("Greek", "ελληνικά"), "fa": ("Persian", "فارسی"), "th": ("Thai", "ภาษาไทย"),
        "sw": ("Swahili", "Kiswahili"), "ga": ("Irish", "Gaeilge"), "cy": ("Welsh", "Cymraeg"),
        "fi": ("Finnish", "suomi"), "is": ("Icelandic", "Íslenska"), "ur": ("Urdu", "اردو"),
        "ta": ("Tamil", "தமிழ்"), "te": ("Telugu", "తెలుగు"), "xh": ("Xhosa", "isiXhosa"),
        "zu": ("Zulu", "isiZulu"), "af": ("Afrikaans", "Afrikaans"), "vi": ("Vietnamese", "Tiếng Việt"),
        "id": ("Indonesian", "Bahasa indonesia"), "ro": ("Romanian", "Română"), "sr": ("Serbian", "Srpski"),
    ]

    static let countries: [String: String] = [
        "US": "United States of America", "GB": "United Kingdom", "DE": "Germany", "FR": "France",
        "IT": "Italy", "ES": "Spain", "JP": "Japan", "KR": "South Korea", "CN": "China", "HK": "Hong Kong",
        "IN": "India", "NZ": "New Zealand", "AU": "Australia", "CA": "Canada", "AT": "Austria",
        "CH": "Switzerland", "SE": "Sweden", "DK": "Denmark", "NO": "Norway", "NL": "Netherlands",
        "BE": "Belgium", "IE": "Ireland", "PL": "Poland", "CZ": "Czech Republic", "HU": "Hungary",
        "RU": "Russia", "MX": "Mexico", "BR": "Brazil", "AR": "Argentina", "ZA": "South Africa",
        "TW": "Taiwan", "UY": "Uruguay", "CL": "Chile", "IS": "Iceland", "FI": "Finland", "LU": "Luxembourg",
        "MT": "Malta", "MA": "Morocco", "JO": "Jordan", "AE": "United Arab Emirates", "LT": "Lithuania",
        "UA": "Ukraine", "IL": "Israel", "TR": "Turkey", "PT": "Portugal", "GR": "Greece", "RO": "Romania",
    ]

    static func language(_ code: String) -> (english: String, native: String) {
        languages[code] ?? (code, code)
    }
}

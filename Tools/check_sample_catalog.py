#!/usr/bin/env python3
"""Check Reel's bundled sample catalog (Python standard library only).

Reads Sources/Catalog/SampleData/{movies,series,people}.json and checks the rules the catalog code
relies on: exact keys in the agreed order, value types, unique ids, dates as YYYY-MM-DD, genre ids
valid for the kind (movie or TV), every cast/crew/created_by person present in people.json (and
people.json holding only referenced people), `similar` lists of 3-8 ids of the same kind that exist
and exclude the title itself, complete de-DE translations, YouTube video entries, the minimum counts
and the required titles and people.

Every title with an IMDb id carries `omdb`, its facts exactly as OMDb answers `?i=IMDBID` (OMDb's
keys in OMDb's order, every value a string, `"N/A"` for what OMDb lacks, `Ratings` a list of
`{Source, Value}`), consistent with the title: the same IMDb id, type, year, season count, and
ratings that agree with the scores. A title without an IMDb id has none (it is not enriched). The
file must also hold OMDb's quirks: series with only the IMDb rating, titles without a Metascore or a
box office, and a title OMDb knows next to nothing about (all "N/A" but its name, year, id and type).

Image paths must be null or one of the real paths in the captured TMDb samples
(Tests/CatalogTests/Fixtures/tmdb/samples, copied from the shared reference, or $REEL_TMDB_SAMPLES); that check and the "top-rated sample
titles present" check are skipped when the samples are not on this machine.

Prints one line per problem and exits 1 if there are any; otherwise prints a one-line summary.
Usage: Tools/check_sample_catalog.py [DATA_DIR]
"""

import datetime
import json
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA_DIR = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Sources" / "Catalog" / "SampleData"
SAMPLES = pathlib.Path(os.environ.get("REEL_TMDB_SAMPLES", ROOT / "Tests" / "CatalogTests" / "Fixtures" / "tmdb" / "samples"))

MOVIE_GENRES = {28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 10402, 9648, 10749, 878, 10770, 53, 10752, 37}
TV_GENRES = {10759, 16, 35, 80, 99, 18, 10751, 10762, 9648, 10763, 10764, 10765, 10766, 10767, 10768, 37}

MOVIE_KEYS = ["id", "imdb_id", "title", "original_title", "original_language", "release_date", "genre_ids",
              "runtime", "status", "tagline", "budget", "revenue", "vote_average", "vote_count", "popularity",
              "poster_path", "backdrop_path", "origin_country", "spoken_languages", "production_countries",
              "production_companies", "overview", "translations", "videos", "cast", "crew", "similar", "omdb"]
SERIES_KEYS = ["id", "imdb_id", "name", "original_name", "original_language", "first_air_date", "last_air_date", "genre_ids",
               "status", "type", "in_production", "tagline", "number_of_seasons", "number_of_episodes",
               "episode_run_time", "vote_average", "vote_count", "popularity", "poster_path", "backdrop_path",
               "origin_country", "languages", "spoken_languages", "networks", "production_companies",
               "production_countries", "overview", "translations", "videos", "cast", "crew", "created_by", "similar", "omdb"]
PERSON_KEYS = ["id", "imdb_id", "name", "gender", "birthday", "deathday", "place_of_birth", "known_for_department",
               "popularity", "profile_path", "also_known_as", "homepage", "biography", "translations"]
COMPANY_KEYS = ["id", "name", "origin_country"]
# OMDb's members, in the order it writes them (a series has totalSeasons and no DVD, box office,
# production or website).
OMDB_MOVIE_KEYS = ["Title", "Year", "Rated", "Released", "Runtime", "Genre", "Director", "Writer", "Actors", "Plot",
                   "Language", "Country", "Awards", "Poster", "Ratings", "Metascore", "imdbRating", "imdbVotes", "imdbID",
                   "Type", "DVD", "BoxOffice", "Production", "Website", "Response"]
OMDB_SERIES_KEYS = ["Title", "Year", "Rated", "Released", "Runtime", "Genre", "Director", "Writer", "Actors", "Plot",
                    "Language", "Country", "Awards", "Poster", "Ratings", "Metascore", "imdbRating", "imdbVotes", "imdbID",
                    "Type", "totalSeasons", "Response"]
# What OMDb says of a title it knows next to nothing about: these, and "N/A" for the rest.
OMDB_ALWAYS = {"Title", "Year", "imdbID", "Type", "Response"}
OMDB_SOURCES = ["Internet Movie Database", "Rotten Tomatoes", "Metacritic"]
VIDEO_KEYS = ["key", "name", "type", "site", "official", "published_at", "language", "size"]
CAST_KEYS = ["person", "character"]
CREW_KEYS = ["person", "job", "department"]

MOVIE_STATUS = {"Rumored", "Planned", "In Production", "Post Production", "Released", "Canceled"}
TV_STATUS = {"Returning Series", "Ended", "Canceled", "In Production", "Planned", "Pilot"}
TV_TYPES = {"Scripted", "Miniseries", "Documentary", "Reality", "Talk Show", "News", "Video"}
VIDEO_TYPES = {"Trailer", "Teaser", "Clip", "Featurette", "Behind the Scenes", "Bloopers", "Opening Credits"}
DEPARTMENTS = {"Directing", "Writing", "Production", "Sound", "Camera", "Editing", "Art", "Costume & Make-Up",
               "Visual Effects", "Crew", "Lighting", "Acting"}

MIN_MOVIES, MIN_SERIES, MIN_PEOPLE = 64, 32, 10
MIN_DE_MOVIES, MIN_DE_SERIES, MIN_DE_PEOPLE = 25, 12, 4
MIN_VIDEO_TITLES = 10
MIN_SIMILAR, MAX_SIMILAR = 3, 8
# OMDb's quirks the facts must show at least this often.
MIN_OMDB_SERIES_ONLY_IMDB = 3
MIN_OMDB_NO_METASCORE_MOVIES = 1
MIN_OMDB_NO_BOX_OFFICE = 2
MIN_OMDB_ALL_NA = 1
CUMBERBATCH = 71580
MIN_CUMBERBATCH_CREDITS = 10
MIN_OTHER_PEOPLE_WITH_TWO_CREDITS = 9
REQUIRED_MOVIES = {550: "Fight Club"}
REQUIRED_SERIES = {1399: "Game of Thrones", 94997: "House of the Dragon", 2316: "The Office", 1396: "Breaking Bad",
                   19885: "Sherlock", 70523: "Dark", 60625: "Rick and Morty"}
FIGHT_CLUB_CAST = {819: "Narrator", 287: "Tyler Durden", 1283: "Marla Singer"}
FIGHT_CLUB_DIRECTOR = 7467

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
COUNTRY = re.compile(r"[A-Z]{2}")
LANGUAGE = re.compile(r"[a-z]{2}")
LOCALE = re.compile(r"[a-z]{2}-[A-Z]{2}")
YOUTUBE_KEY = re.compile(r"[A-Za-z0-9_-]{11}")
IMAGE = re.compile(r"/[A-Za-z0-9]+\.(jpg|png)")
IMDB_TITLE = re.compile(r"tt\d{7,8}")
OMDB_DATE = re.compile(r"\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}")
OMDB_RUNTIME = re.compile(r"[1-9]\d* min")
OMDB_RATING = re.compile(r"(10|\d)\.\d")
OMDB_VOTES = re.compile(r"[1-9]\d{0,2}(,\d{3})*")
OMDB_MONEY = re.compile(r"\$[1-9]\d{0,2}(,\d{3})*")
OMDB_SCORE = re.compile(r"100|[1-9]?\d")
OMDB_PERCENT = re.compile(r"(100|[1-9]?\d)%")
OMDB_SEASONS = re.compile(r"[1-9]\d*")
# Abbreviations that end in a full stop without ending a sentence.
ABBREVIATIONS = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|Lt|Col|Capt|Sgt|Gen|Prof|vs|No|ca|bzw|usw|z\.B|u\.a|d\.h)\.$")

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return (isinstance(v, (int, float))) and not isinstance(v, bool)


def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""


def valid_date(v):
    if not isinstance(v, str) or not DATE.fullmatch(v):
        return False
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def sentence_count(text):
    words = text.split()
    count = 0
    for i, w in enumerate(words):
        if re.search(r"[.!?][\"')\u201c\u201d]?$", w):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if nxt == "":  # the last word always closes a sentence
                count += 1
                continue
            if w.endswith(".") and ABBREVIATIONS.search(w):
                continue
            if re.fullmatch(r"(?:[A-Z]\.)+", w):  # initials such as "D.B."
                continue
            if nxt[0].isupper() or nxt[0] in "\"'\u201e":
                count += 1
    if text.strip() and not re.search(r"[.!?][\"')\u201c\u201d]?$", text.strip()):
        count += 1
    return count


def load(name):
    path = DATA_DIR / name
    try:
        raw = path.read_bytes()
    except OSError as e:
        problem(name, f"cannot read: {e}")
        return []
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        problem(name, f"not valid UTF-8 JSON: {e}")
        return []
    if not isinstance(data, list):
        problem(name, "top level must be a JSON array")
        return []
    return data


def sample_image_paths():
    """Real image paths found anywhere in the captured samples, or None when they are not available."""
    if not SAMPLES.is_dir():
        return None
    paths = set()

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("poster_path", "backdrop_path", "profile_path", "still_path", "logo_path") and isinstance(x, str):
                    paths.add(x)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for f in SAMPLES.glob("*.json"):
        try:
            walk(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            continue
    return paths


def top_rated_sample_ids():
    f = SAMPLES / "movie-top-rated.json"
    try:
        return {r["id"]: r["title"] for r in json.loads(f.read_text(encoding="utf-8"))["results"]}
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return None


def check_keys(where, obj, keys):
    if not isinstance(obj, dict):
        problem(where, "must be a JSON object")
        return False
    if list(obj.keys()) != keys:
        missing = [k for k in keys if k not in obj]
        extra = [k for k in obj if k not in keys]
        if missing or extra:
            problem(where, f"keys differ: missing {missing}, unexpected {extra}")
        else:
            problem(where, "keys are not in the agreed order")
        return not missing
    return True


def check_str_list(where, field, v, pattern, allow_empty=False):
    if not isinstance(v, list) or (not v and not allow_empty):
        problem(where, f"{field} must be a {'(possibly empty) ' if allow_empty else 'non-empty '}list")
        return
    for x in v:
        if not isinstance(x, str) or not pattern.fullmatch(x):
            problem(where, f"{field} has invalid entry {x!r}")
    if len(set(v)) != len(v):
        problem(where, f"{field} has duplicates")


def check_common(where, t, genres, images):
    if not is_int(t["id"]) or t["id"] <= 0:
        problem(where, "id must be a positive integer")
    if not isinstance(t["original_language"], str) or not LANGUAGE.fullmatch(t["original_language"]):
        problem(where, "original_language must be an ISO 639-1 code")
    g = t["genre_ids"]
    if not isinstance(g, list) or not g or not all(is_int(x) for x in g):
        problem(where, "genre_ids must be a non-empty list of integers")
    else:
        bad = [x for x in g if x not in genres]
        if bad:
            problem(where, f"genre_ids not valid for this kind: {bad}")
        if len(set(g)) != len(g):
            problem(where, "genre_ids has duplicates")
    if not isinstance(t["tagline"], str):
        problem(where, "tagline must be a string")
    if not is_number(t["vote_average"]) or not 0 <= t["vote_average"] <= 10:
        problem(where, "vote_average must be a number from 0 to 10")
    if not is_int(t["vote_count"]) or t["vote_count"] < 0:
        problem(where, "vote_count must be a non-negative integer")
    if not is_number(t["popularity"]) or t["popularity"] < 0:
        problem(where, "popularity must be a non-negative number")
    for field in ("poster_path", "backdrop_path"):
        v = t[field]
        if v is None:
            continue
        if not isinstance(v, str) or not IMAGE.fullmatch(v):
            problem(where, f"{field} must be null or a TMDb image path")
        elif images is not None and v not in images:
            problem(where, f"{field} {v} does not come from the captured samples")
    check_str_list(where, "origin_country", t["origin_country"], COUNTRY)
    check_str_list(where, "spoken_languages", t["spoken_languages"], LANGUAGE)
    check_str_list(where, "production_countries", t["production_countries"], COUNTRY, allow_empty=True)
    pcs = t["production_companies"]
    if not isinstance(pcs, list):
        problem(where, "production_companies must be a list")
    else:
        for i, c in enumerate(pcs):
            w = f"{where} production_companies[{i}]"
            if check_keys(w, c, COMPANY_KEYS):
                if not is_int(c["id"]) or c["id"] <= 0:
                    problem(w, "id must be a positive integer")
                if not nonempty_str(c["name"]):
                    problem(w, "name must be a non-empty string")
                if not isinstance(c["origin_country"], str) or not (c["origin_country"] == "" or COUNTRY.fullmatch(c["origin_country"])):
                    problem(w, "origin_country must be \"\" or an ISO 3166-1 code")
        if len({c.get("id") for c in pcs if isinstance(c, dict)}) != len(pcs):
            problem(where, "production_companies has duplicate ids")
    if not nonempty_str(t["overview"]):
        problem(where, "overview must be a non-empty string")
    elif sentence_count(t["overview"]) > 3:
        problem(where, "overview is longer than 3 sentences")
    vids = t["videos"]
    if not isinstance(vids, list):
        problem(where, "videos must be a list")
    else:
        for i, v in enumerate(vids):
            w = f"{where} videos[{i}]"
            if not check_keys(w, v, VIDEO_KEYS):
                continue
            if not isinstance(v["key"], str) or not YOUTUBE_KEY.fullmatch(v["key"]):
                problem(w, "key must be an 11-character YouTube id")
            if not nonempty_str(v["name"]):
                problem(w, "name must be a non-empty string")
            if v["type"] not in VIDEO_TYPES:
                problem(w, f"type {v['type']!r} is not a TMDb video type")
            if v["site"] != "YouTube":
                problem(w, "site must be YouTube")
            if not isinstance(v["official"], bool):
                problem(w, "official must be a boolean")
            if not isinstance(v["published_at"], str) or not TIMESTAMP.fullmatch(v["published_at"]):
                problem(w, "published_at must look like 2019-10-15T18:59:47.000Z")
            if not isinstance(v["language"], str) or not LOCALE.fullmatch(v["language"]):
                problem(w, "language must look like en-US")
            if v["size"] not in (360, 480, 720, 1080, 2160):
                problem(w, "size must be 360, 480, 720, 1080 or 2160")
        keys = [v.get("key") for v in vids if isinstance(v, dict)]
        if len(set(keys)) != len(keys):
            problem(where, "videos has duplicate keys")


def check_credits(where, t, person_ids, credits):
    cast = t["cast"]
    if not isinstance(cast, list):
        problem(where, "cast must be a list")
        cast = []
    seen = set()
    for i, c in enumerate(cast):
        w = f"{where} cast[{i}]"
        if not check_keys(w, c, CAST_KEYS):
            continue
        if not is_int(c["person"]):
            problem(w, "person must be an integer id")
            continue
        if c["person"] not in person_ids:
            problem(w, f"person {c['person']} is not in people.json")
        if c["person"] in seen:
            problem(w, f"person {c['person']} appears twice in the cast")
        seen.add(c["person"])
        if not nonempty_str(c["character"]):
            problem(w, "character must be a non-empty string")
        credits.setdefault(c["person"], set()).add(where)
    crew = t["crew"]
    if not isinstance(crew, list):
        problem(where, "crew must be a list")
        crew = []
    jobs = set()
    for i, c in enumerate(crew):
        w = f"{where} crew[{i}]"
        if not check_keys(w, c, CREW_KEYS):
            continue
        if not is_int(c["person"]):
            problem(w, "person must be an integer id")
            continue
        if c["person"] not in person_ids:
            problem(w, f"person {c['person']} is not in people.json")
        if not nonempty_str(c["job"]):
            problem(w, "job must be a non-empty string")
        if c["department"] not in DEPARTMENTS:
            problem(w, f"department {c['department']!r} is not a TMDb department")
        if (c["person"], c["job"]) in jobs:
            problem(w, f"person {c['person']} listed twice as {c['job']}")
        jobs.add((c["person"], c["job"]))
        credits.setdefault(c["person"], set()).add(where)


def check_similar(where, t, ids):
    sim = t["similar"]
    if not isinstance(sim, list) or not all(is_int(x) for x in sim):
        problem(where, "similar must be a list of integer ids")
        return
    if not MIN_SIMILAR <= len(sim) <= MAX_SIMILAR:
        problem(where, f"similar must hold {MIN_SIMILAR}-{MAX_SIMILAR} ids, has {len(sim)}")
    if t["id"] in sim:
        problem(where, "similar must not contain the title itself")
    if len(set(sim)) != len(sim):
        problem(where, "similar has duplicates")
    missing = [x for x in sim if x not in ids]
    if missing:
        problem(where, f"similar ids not in the same file: {missing}")


def check_translation(where, tr, name_key):
    """Returns True when a complete de-DE translation is present."""
    if not isinstance(tr, dict):
        problem(where, "translations must be an object")
        return False
    for locale, entry in tr.items():
        w = f"{where} translations[{locale}]"
        if not LOCALE.fullmatch(locale):
            problem(w, "locale must look like de-DE")
        keys = [name_key, "overview", "tagline"] if name_key else ["biography"]
        if not check_keys(w, entry, keys):
            continue
        for k in keys:
            if k == "tagline":
                if not isinstance(entry[k], str):
                    problem(w, "tagline must be a string")
            elif not nonempty_str(entry[k]):
                problem(w, f"{k} must be a non-empty string (translation incomplete)")
            elif k in ("overview", "biography") and sentence_count(entry[k]) > 3:
                problem(w, f"{k} is longer than 3 sentences")
    de = tr.get("de-DE")
    return isinstance(de, dict) and all(nonempty_str(de.get(k)) for k in ([name_key, "overview"] if name_key else ["biography"]))


def check_omdb(where, t, kind, quirks):
    """Checks a title's `omdb` facts (see the module's notes); `kind` is "movie" or "series".
    Counts OMDb's quirks it shows in `quirks`."""
    o, imdb_id = t["omdb"], t["imdb_id"]
    if imdb_id is None:
        if o is not None:
            problem(where, "omdb must be null for a title without an imdb_id")
        return
    if o is None:
        problem(where, "omdb is missing: every title with an imdb_id has OMDb's facts")
        return
    w = f"{where} omdb"
    if not check_keys(w, o, OMDB_MOVIE_KEYS if kind == "movie" else OMDB_SERIES_KEYS):
        return
    for k, v in o.items():
        if k == "Ratings":
            continue
        if not isinstance(v, str):
            problem(w, f"{k} must be a string, as every OMDb value is")
        elif v.strip() == "" or v != v.strip():
            problem(w, f"{k} must be \"N/A\" or text without surrounding spaces")
        elif any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in v):
            problem(w, f"{k} has a control character")
    ratings = o["Ratings"]
    sources = []
    if not isinstance(ratings, list):
        problem(w, "Ratings must be a list")
        ratings = []
    for i, r in enumerate(ratings):
        if not check_keys(f"{w} Ratings[{i}]", r, ["Source", "Value"]):
            continue
        if r["Source"] not in OMDB_SOURCES:
            problem(w, f"Ratings[{i}] Source {r['Source']!r} is not one of OMDb's")
        sources.append(r["Source"])
    if sources != sorted(set(sources), key=OMDB_SOURCES.index):
        problem(w, "Ratings must list each source at most once, in OMDb's order (IMDb, Rotten Tomatoes, Metacritic)")
    if not all(isinstance(o[k], str) for k in o if k != "Ratings"):
        return
    value = {r["Source"]: r["Value"] for r in ratings if isinstance(r, dict) and isinstance(r.get("Value"), str)}
    if o["imdbID"] != imdb_id:
        problem(w, f"imdbID {o['imdbID']} is not the title's imdb_id {imdb_id}")
    if o["Response"] != "True":
        problem(w, "Response must be \"True\"")
    if o["Type"] != kind:
        problem(w, f"Type must be {kind!r}")
    na = lambda k: o[k] == "N/A"  # noqa: E731
    if na("Title") or na("Year"):
        problem(w, "Title and Year are never \"N/A\"")
    if kind == "movie":
        if o["Year"] != t["release_date"][:4]:
            problem(w, f"Year {o['Year']} is not the release year {t['release_date'][:4]}")
    else:
        first, last = t["first_air_date"][:4], (t["last_air_date"] or "")[:4]
        ended = t["status"] in ("Ended", "Canceled")
        expected = (first if first == last else f"{first}\u2013{last}") if ended else f"{first}\u2013"
        if o["Year"] != expected:
            problem(w, f"Year {o['Year']!r} should be {expected!r} (an en dash, open while the series runs)")
        if not na("totalSeasons") and o["totalSeasons"] != str(t["number_of_seasons"]):
            problem(w, f"totalSeasons {o['totalSeasons']} is not number_of_seasons {t['number_of_seasons']}")
    for k, pattern in (("Released", OMDB_DATE), ("Runtime", OMDB_RUNTIME), ("imdbRating", OMDB_RATING),
                       ("imdbVotes", OMDB_VOTES), ("Metascore", OMDB_SCORE), ("BoxOffice", OMDB_MONEY),
                       ("DVD", OMDB_DATE), ("totalSeasons", OMDB_SEASONS), ("imdbID", IMDB_TITLE)):
        if k in o and not na(k) and not pattern.fullmatch(o[k]):
            problem(w, f"{k} {o[k]!r} is not in OMDb's format")
    if not na("imdbRating") and OMDB_RATING.fullmatch(o["imdbRating"]):
        if not 1 <= float(o["imdbRating"]) <= 10:
            problem(w, "imdbRating must be from 1.0 to 10.0")
        if na("imdbVotes"):
            problem(w, "an imdbRating needs imdbVotes")
    imdb_value = value.get("Internet Movie Database")
    if imdb_value != (None if na("imdbRating") else o["imdbRating"] + "/10"):
        problem(w, "the Internet Movie Database rating must be imdbRating/10 (and absent without one)")
    mc_value = value.get("Metacritic")
    if mc_value != (None if na("Metascore") else o["Metascore"] + "/100"):
        problem(w, "the Metacritic rating must be Metascore/100 (and absent without one)")
    rt = value.get("Rotten Tomatoes")
    if rt is not None and not OMDB_PERCENT.fullmatch(rt):
        problem(w, f"the Rotten Tomatoes rating {rt!r} must look like 81%")
    if all(o[k] == "N/A" for k in o if k not in OMDB_ALWAYS and k != "Ratings") and not ratings:
        quirks["all N/A"] += 1
        return
    if na("imdbRating"):
        problem(w, "only the deliberate all-\"N/A\" title lacks an IMDb rating")
    if kind == "series" and sources == ["Internet Movie Database"]:
        quirks["series with only the IMDb rating"] += 1
    if kind == "movie" and na("Metascore"):
        quirks["movies without a Metascore"] += 1
    if kind == "movie" and na("BoxOffice"):
        quirks["movies without a box office"] += 1


def main():
    movies = load("movies.json")
    series = load("series.json")
    people = load("people.json")
    images = sample_image_paths()

    # People first: every reference is checked against this set.
    person_ids = set()
    de_people = 0
    for i, p in enumerate(people):
        where = f"people.json[{i}]"
        if not check_keys(where, p, PERSON_KEYS):
            continue
        where = f"person {p['id']}"
        if not is_int(p["id"]) or p["id"] <= 0:
            problem(where, "id must be a positive integer")
        elif p["id"] in person_ids:
            problem(where, "duplicate id in people.json")
        person_ids.add(p["id"])
        if p["imdb_id"] is not None and (not isinstance(p["imdb_id"], str) or not re.fullmatch(r"nm\d{7,8}", p["imdb_id"])):
            problem(where, "imdb_id must be null or look like nm0000093")
        if not nonempty_str(p["name"]):
            problem(where, "name must be a non-empty string")
        if p["gender"] not in (0, 1, 2, 3) or isinstance(p["gender"], bool):
            problem(where, "gender must be 0, 1, 2 or 3")
        for f in ("birthday", "deathday"):
            if p[f] is not None and not valid_date(p[f]):
                problem(where, f"{f} must be null or YYYY-MM-DD")
        if valid_date(p["birthday"]) and valid_date(p["deathday"]) and p["deathday"] <= p["birthday"]:
            problem(where, "deathday must come after birthday")
        if p["place_of_birth"] is not None and not nonempty_str(p["place_of_birth"]):
            problem(where, "place_of_birth must be null or a non-empty string")
        if p["known_for_department"] not in DEPARTMENTS:
            problem(where, f"known_for_department {p['known_for_department']!r} is not a TMDb department")
        if not is_number(p["popularity"]) or p["popularity"] < 0:
            problem(where, "popularity must be a non-negative number")
        if p["profile_path"] is not None and (not isinstance(p["profile_path"], str) or (images is not None and p["profile_path"] not in images)):
            problem(where, "profile_path must be null or a path from the captured samples")
        if not isinstance(p["also_known_as"], list) or not all(isinstance(x, str) for x in p["also_known_as"]):
            problem(where, "also_known_as must be a list of strings")
        if p["homepage"] is not None and not nonempty_str(p["homepage"]):
            problem(where, "homepage must be null or a URL string")
        if not nonempty_str(p["biography"]):
            problem(where, "biography must be a non-empty string")
        elif sentence_count(p["biography"]) > 3:
            problem(where, "biography is longer than 3 sentences")
        if check_translation(where, p["translations"], None):
            de_people += 1

    credits = {}  # person id -> set of titles
    quirks = {"series with only the IMDb rating": 0, "movies without a Metascore": 0, "movies without a box office": 0,
              "all N/A": 0}
    imdb_ids = {}

    movie_ids, de_movies, video_titles, movie_genres_used = set(), 0, 0, set()
    for i, m in enumerate(movies):
        where = f"movies.json[{i}]"
        if not check_keys(where, m, MOVIE_KEYS):
            continue
        where = f"movie {m['id']}"
        if m["id"] in movie_ids:
            problem(where, "duplicate id in movies.json")
        movie_ids.add(m["id"])
    for m in movies:
        if not isinstance(m, dict) or list(m.keys()) != MOVIE_KEYS:
            continue
        where = f"movie {m['id']}"
        check_common(where, m, MOVIE_GENRES, images)
        movie_genres_used.update(x for x in m["genre_ids"] if is_int(x))
        if m["imdb_id"] is not None and (not isinstance(m["imdb_id"], str) or not IMDB_TITLE.fullmatch(m["imdb_id"])):
            problem(where, "imdb_id must be null or look like tt0137523")
        elif m["imdb_id"] is not None:
            if m["imdb_id"] in imdb_ids:
                problem(where, f"imdb_id {m['imdb_id']} is also {imdb_ids[m['imdb_id']]}'s")
            imdb_ids[m["imdb_id"]] = where
        check_omdb(where, m, "movie", quirks)
        for f in ("title", "original_title"):
            if not nonempty_str(m[f]):
                problem(where, f"{f} must be a non-empty string")
        if not valid_date(m["release_date"]):
            problem(where, "release_date must be YYYY-MM-DD")
        if m["status"] not in MOVIE_STATUS:
            problem(where, f"status {m['status']!r} is not a TMDb movie status")
        if m["runtime"] is None:
            if m["status"] == "Released":
                problem(where, "runtime may be null only for unreleased titles")
        elif not is_int(m["runtime"]) or m["runtime"] <= 0:
            problem(where, "runtime must be a positive integer or null")
        for f in ("budget", "revenue"):
            if not is_int(m[f]) or m[f] < 0:
                problem(where, f"{f} must be a non-negative integer (0 when unknown)")
        if check_translation(where, m["translations"], "title"):
            de_movies += 1
        if m["videos"]:
            video_titles += 1
        check_credits(where, m, person_ids, credits)
        check_similar(where, m, movie_ids)

    series_ids, de_series, tv_genres_used = set(), 0, set()
    for i, s in enumerate(series):
        where = f"series.json[{i}]"
        if not check_keys(where, s, SERIES_KEYS):
            continue
        if s["id"] in series_ids:
            problem(f"series {s['id']}", "duplicate id in series.json")
        series_ids.add(s["id"])
    for s in series:
        if not isinstance(s, dict) or list(s.keys()) != SERIES_KEYS:
            continue
        where = f"series {s['id']}"
        check_common(where, s, TV_GENRES, images)
        tv_genres_used.update(x for x in s["genre_ids"] if is_int(x))
        for f in ("name", "original_name"):
            if not nonempty_str(s[f]):
                problem(where, f"{f} must be a non-empty string")
        if s["imdb_id"] is not None and (not isinstance(s["imdb_id"], str) or not IMDB_TITLE.fullmatch(s["imdb_id"])):
            problem(where, "imdb_id must be null or look like tt0944947")
        elif s["imdb_id"] is not None:
            if s["imdb_id"] in imdb_ids:
                problem(where, f"imdb_id {s['imdb_id']} is also {imdb_ids[s['imdb_id']]}'s")
            imdb_ids[s["imdb_id"]] = where
        check_omdb(where, s, "series", quirks)
        if not valid_date(s["first_air_date"]):
            problem(where, "first_air_date must be YYYY-MM-DD")
        if s["last_air_date"] is not None:
            if not valid_date(s["last_air_date"]):
                problem(where, "last_air_date must be null or YYYY-MM-DD")
            elif valid_date(s["first_air_date"]) and s["last_air_date"] < s["first_air_date"]:
                problem(where, "last_air_date is before first_air_date")
        if s["status"] not in TV_STATUS:
            problem(where, f"status {s['status']!r} is not a TMDb series status")
        if s["type"] not in TV_TYPES:
            problem(where, f"type {s['type']!r} is not a TMDb series type")
        if not isinstance(s["in_production"], bool):
            problem(where, "in_production must be a boolean")
        elif s["in_production"] and s["status"] in ("Ended", "Canceled"):
            problem(where, "an ended or canceled series cannot be in production")
        for f in ("number_of_seasons", "number_of_episodes"):
            if not is_int(s[f]) or s[f] < 1:
                problem(where, f"{f} must be a positive integer")
        if is_int(s["number_of_seasons"]) and is_int(s["number_of_episodes"]) and s["number_of_episodes"] < s["number_of_seasons"]:
            problem(where, "number_of_episodes is smaller than number_of_seasons")
        if not isinstance(s["episode_run_time"], list) or not all(is_int(x) and x > 0 for x in s["episode_run_time"]):
            problem(where, "episode_run_time must be a list of positive integers")
        check_str_list(where, "languages", s["languages"], LANGUAGE)
        nets = s["networks"]
        if not isinstance(nets, list):
            problem(where, "networks must be a list")
        else:
            for i, n in enumerate(nets):
                w = f"{where} networks[{i}]"
                if check_keys(w, n, COMPANY_KEYS):
                    if not is_int(n["id"]) or n["id"] <= 0:
                        problem(w, "id must be a positive integer")
                    if not nonempty_str(n["name"]):
                        problem(w, "name must be a non-empty string")
                    if not isinstance(n["origin_country"], str) or not (n["origin_country"] == "" or COUNTRY.fullmatch(n["origin_country"])):
                        problem(w, "origin_country must be \"\" or an ISO 3166-1 code")
        cb = s["created_by"]
        if not isinstance(cb, list) or not all(is_int(x) for x in cb):
            problem(where, "created_by must be a list of person ids")
        else:
            for pid in cb:
                if pid not in person_ids:
                    problem(where, f"created_by person {pid} is not in people.json")
                credits.setdefault(pid, set()).add(where)
            if len(set(cb)) != len(cb):
                problem(where, "created_by has duplicates")
        if check_translation(where, s["translations"], "name"):
            de_series += 1
        if s["videos"]:
            video_titles += 1
        check_credits(where, s, person_ids, credits)
        check_similar(where, s, series_ids)

    # People must all be referenced.
    for pid in sorted(person_ids - set(credits)):
        problem(f"person {pid}", "is not referenced by any cast, crew or created_by entry")

    # Counts.
    for label, have, need in (("movies", len(movie_ids), MIN_MOVIES), ("series", len(series_ids), MIN_SERIES),
                              ("people", len(person_ids), MIN_PEOPLE),
                              ("movies with a complete de-DE translation", de_movies, MIN_DE_MOVIES),
                              ("series with a complete de-DE translation", de_series, MIN_DE_SERIES),
                              ("people with a de-DE biography", de_people, MIN_DE_PEOPLE),
                              ("titles with videos", video_titles, MIN_VIDEO_TITLES),
                              ("series with only the IMDb rating (OMDb)", quirks["series with only the IMDb rating"],
                               MIN_OMDB_SERIES_ONLY_IMDB),
                              ("movies without a Metascore (OMDb)", quirks["movies without a Metascore"],
                               MIN_OMDB_NO_METASCORE_MOVIES),
                              ("movies without a box office (OMDb)", quirks["movies without a box office"],
                               MIN_OMDB_NO_BOX_OFFICE),
                              ("titles all \"N/A\" in OMDb", quirks["all N/A"], MIN_OMDB_ALL_NA)):
        if have < need:
            problem("counts", f"{label}: {have}, need at least {need}")

    # Genre coverage.
    unused = sorted(MOVIE_GENRES - movie_genres_used)
    if unused:
        problem("genres", f"movie genre ids never used: {unused}")
    unused = sorted(TV_GENRES - tv_genres_used)
    if unused:
        problem("genres", f"TV genre ids never used: {unused}")

    # Required titles and people.
    by_movie = {m["id"]: m for m in movies if isinstance(m, dict) and "id" in m}
    for mid, title in REQUIRED_MOVIES.items():
        if mid not in by_movie:
            problem("required", f"movie {mid} ({title}) is missing")
    for sid, name in REQUIRED_SERIES.items():
        if sid not in series_ids:
            problem("required", f"series {sid} ({name}) is missing")
    fc = by_movie.get(550)
    if isinstance(fc, dict) and isinstance(fc.get("cast"), list):
        cast = {c.get("person"): c.get("character") for c in fc["cast"] if isinstance(c, dict)}
        for pid, character in FIGHT_CLUB_CAST.items():
            if cast.get(pid) != character:
                problem("required", f"Fight Club cast must list person {pid} as {character!r}")
        if not any(isinstance(c, dict) and c.get("person") == FIGHT_CLUB_DIRECTOR and c.get("job") == "Director"
                   for c in fc.get("crew", [])):
            problem("required", f"Fight Club crew must list person {FIGHT_CLUB_DIRECTOR} as Director")
    top = top_rated_sample_ids()
    if top:
        for mid, title in top.items():
            if mid not in movie_ids:
                problem("required", f"top-rated sample movie {mid} ({title}) is missing")
    if CUMBERBATCH not in person_ids:
        problem("required", f"person {CUMBERBATCH} (Benedict Cumberbatch) is missing")
    else:
        n = len(credits.get(CUMBERBATCH, ()))
        if n < MIN_CUMBERBATCH_CREDITS:
            problem("required", f"person {CUMBERBATCH} has {n} credits, need at least {MIN_CUMBERBATCH_CREDITS}")
        if "series 19885" not in credits.get(CUMBERBATCH, ()):
            problem("required", f"person {CUMBERBATCH} must be in the cast of Sherlock (19885)")
    others = [pid for pid, titles in credits.items() if pid != CUMBERBATCH and len(titles) >= 2]
    if len(others) < MIN_OTHER_PEOPLE_WITH_TWO_CREDITS:
        problem("required", f"only {len(others)} people besides {CUMBERBATCH} have 2+ credits, need {MIN_OTHER_PEOPLE_WITH_TWO_CREDITS}")
    german = [m for m in movies if isinstance(m, dict) and m.get("original_language") == "de"]
    if len(german) < 3:
        problem("required", f"only {len(german)} German-language films, need at least 3")
    if not any(isinstance(m, dict) and m.get("original_language") == "ja" and 16 in m.get("genre_ids", []) for m in movies):
        problem("required", "no Japanese animated film (anime)")

    if problems:
        for line in problems:
            print(line)
        return 1
    print(f"OK: {len(movie_ids)} movies, {len(series_ids)} series, {len(person_ids)} people; "
          f"de-DE: {de_movies} movies, {de_series} series, {de_people} biographies; "
          f"{video_titles} titles with videos; {len(others)} people besides Cumberbatch with 2+ credits, "
          f"Cumberbatch {len(credits.get(CUMBERBATCH, ()))} credits; OMDb facts for {len(imdb_ids)} titles"
          + ("" if images is not None else " (image paths not checked: samples not found)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

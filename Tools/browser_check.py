#!/usr/bin/env python3
"""Reel's web app in a real browser: Debian's Chromium, headless, driven by Playwright (PyPI),
against a running `reel serve` and the fake TMDb server. Run by AppAndServiceTests
(WebAppBrowserTests), which starts both and passes what this needs as JSON:

    browser_check.py '{"url": ..., "link": ..., "token": ..., "reel": ..., "fake": ..., "artefacts": ...}'

url: the service; link: a sign-in link for the account "ann"; token: a bearer token of ann's;
reel: a command that runs `reel` on the service's data directory; fake: the fake TMDb server's root
(for its faults); artefacts: where the screenshots go (1280x800 and 390x844 for each page).

Each step is one person's action and what they must then see. A console error (a CSP violation is
one), an uncaught exception, a failed request or an error answer the step did not expect fails the
run. Exits 0 when every step passed, else 1 with the step and why on stderr."""
import http.server, json, os, pathlib, re, struct, subprocess, sys, threading, time, urllib.error, urllib.request, zlib

from playwright.sync_api import sync_playwright, expect

config = json.loads(sys.argv[1])
BASE = config["url"].rstrip("/")
ART = pathlib.Path(config["artefacts"])
ART.mkdir(parents=True, exist_ok=True)
CHROMIUM = os.environ.get("REEL_CHROMIUM", "/usr/bin/chromium")
expect.set_options(timeout=15_000)

problems = []  # what went wrong on the app's own pages, unexpected
allowed = []  # (status, path regex) the current step expects
answers = []  # every answer to the app's pages ("DELETE /v1/account 200"), for a failed step's report
watched = []  # the pages watched, for what their toast said when a step failed


def watch(page):
    """Records what must not happen on a page of the app."""
    watched.append(page)
    def console(message):
        if message.type not in ("error", "warning"):
            return
        # The browser's own line for an error answer: judged with the answer (below).
        failed = re.match(r"Failed to load resource: the server responded with a status of (\d+)", message.text)
        if failed:
            path = (message.location or {}).get("url", "").removeprefix(BASE)
            if any(int(failed.group(1)) == s and re.search(p, path) for s, p in allowed):
                return
        problems.append(f"console {message.type}: {message.text} ({(message.location or {}).get('url', '')})")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("requestfailed", lambda r: None if (r.failure or "").endswith("ERR_ABORTED") else problems.append(f"request failed: {r.method} {r.url}: {r.failure}"))

    def answered(response):
        path = response.url.removeprefix(BASE)
        # Without the query: a report names what was asked, never a secret a query could carry.
        answers.append(f"{response.request.method} {path.split('?')[0]} {response.status}")
        if response.status >= 400 and not any(response.status == s and re.search(p, path) for s, p in allowed):
            problems.append(f"{response.request.method} {path} answered {response.status}")

    page.on("response", answered)


def reel(*arguments):
    out = subprocess.run([config["reel"], *arguments], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise AssertionError(f"reel {' '.join(arguments)} exited {out.returncode}: {out.stderr}")
    return out.stdout


def saved_ids():
    return {(i["mediaType"], i["id"]) for i in json.loads(reel("saved", "--user", "ann", "--json"))["items"]}


def wait_for(condition, what, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


def fault(query):
    control("/__fault?" + query)


def control(path):
    urllib.request.urlopen(urllib.request.Request(config["fake"] + path, method="POST"), timeout=10).read()


def png(path):
    """A 64x64 PNG of one colour."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([200, 60, 50]) * 64 for _ in range(64))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    path.write_bytes(data)


def status_with_token(path, token):
    request = urllib.request.Request(BASE + path, headers={"Authorization": f"Bearer {token}"})
    try:
        return urllib.request.urlopen(request, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def shot(page, name):
    page.screenshot(path=str(ART / f"{name}-{page.viewport_size['width']}x{page.viewport_size['height']}.png"))


def step(name, action):
    before, asked = len(problems), len(answers)
    try:
        action()
    except Exception as error:  # noqa: BLE001 (the step's words are the report)
        sys.exit(failure(name, error, problems[before:], answers[asked:]))
    if len(problems) > before:
        sys.exit(f"step '{name}': " + "; ".join(problems[before:]))
    print(f"ok: {name}", flush=True)


def failure(name, error, unexpected, asked):
    """A failed step, said so that its cause shows before Playwright's long error (whose page
    snapshot a report may cut): the error's first line, what went wrong on the pages meanwhile,
    the app's answers during the step (error answers the step allowed among them), and what the
    toast said."""
    text = str(error)
    lines = [f"step '{name}' failed: {text.splitlines()[0] if text else type(error).__name__}"]
    if unexpected:
        lines.append("  unexpected meanwhile: " + "; ".join(unexpected))
    lines.append("  answers during the step: " + (", ".join(asked[-20:]) or "none"))
    for page in watched:
        try:
            said = page.locator("#toast").inner_text(timeout=1_000).strip()
        except Exception:  # noqa: BLE001 (a closed page, a page without the app: nothing to say)
            continue
        if said:
            lines.append(f"  the toast said: {said}")
    return "\n".join(lines + ["", text])


# A page of another origin on the same site (another port of 127.0.0.1): a browser sends the
# SameSite=Strict cookie with its form posts, so only the Origin check stands between them.
class Evil(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = (
            "<!doctype html><form id=f method=post enctype=text/plain action='" + BASE + "/v1/favorites'>"
            "<input name='{\"mediaType\":\"movie\",\"id\":550,\"x\":\"' value='\"}'></form>"
            "<script>document.getElementById('f').submit()</script>"
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
threading.Thread(target=evil.serve_forever, daemon=True).start()

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    watch(page)
    asked = []
    page.on("request", lambda r: asked.append(r.url))

    def sign_in():
        # A new browser has no session: the page's first question (GET /v1/session) is a 401.
        allowed.append((401, r"^/v1/session$"))
        page.goto(config["link"])
        expect(page.locator(".card").first).to_be_visible()
        assert "signin" not in page.url and "reel_" not in page.url, f"the secret stayed in the address bar: {page.url}"
        assert page.evaluate("history.length") >= 1
        assert "reel_" not in page.evaluate("document.cookie"), "a script can read the session cookie"
        cookie = [c for c in context.cookies() if c["name"] == "reel_session"]
        assert cookie and cookie[0]["httpOnly"] and cookie[0]["sameSite"] == "Strict", f"the session cookie: {cookie}"
        expect(page.locator("#who")).to_contain_text("ann")
        allowed.pop()
        shot(page, "movies")

    step("sign in with a link", sign_in)

    def scroll_to_page_two():
        # Page 1 is 20 titles; page 2 is asked for as its end nears the view (at once when
        # page 1 is shorter than the window), and again as the reader scrolls on.
        page.mouse.wheel(0, 20_000)
        wait_for(lambda: page.locator(".card").count() >= 40, "the second page's cards")
        pages = [r for r in asked if "/v1/catalog/movie?" in r and "page=2" in r]
        assert len(pages) == 1, f"page 2 was asked for {len(pages)} times"

    step("browse and scroll to page 2", scroll_to_page_two)

    def save_from_a_row():
        card = page.locator(".card").first
        href = card.locator("a.open").get_attribute("href")
        media, ident = href.split("/")[-2], int(href.split("/")[-1])
        card.locator("button.heart").click()
        expect(card.locator("button.heart")).to_have_attribute("aria-pressed", "true")
        wait_for(lambda: (media, ident) in saved_ids(), "reel saved --json in another process to have it")

    step("save from a row", save_from_a_row)

    def search():
        page.keyboard.press("/")
        expect(page.locator("#q")).to_be_focused()
        page.locator("#q").press_sequentially("xyz", delay=20)
        page.locator("#q").fill("")
        page.locator("#q").press_sequentially("matrix", delay=30)
        expect(page.locator(".card .title", has_text="The Matrix").first).to_be_visible()
        shot(page, "search")

    step("search as you type", search)

    def details():
        page.locator(".card a.open", has_text="The Matrix").first.click()
        expect(page.locator("h1")).to_contain_text("The Matrix")
        expect(page.locator("img.backdrop")).to_be_visible()
        wait_for(lambda: page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"), "the poster and backdrop to load")
        expect(page.get_by_text("Cast")).to_be_visible()
        shot(page, "details")

    step("details", details)

    def remove_and_undo():
        page.goto(BASE + "/#/saved")
        rows = page.locator(".saved-list li")
        expect(rows.first).to_be_visible()
        count = rows.count()
        title = rows.first.locator("a").inner_text()
        shot(page, "saved")
        rows.first.get_by_role("button", name=re.compile("^Remove")).click()
        expect(rows).to_have_count(count - 1)
        page.locator("#toast").get_by_role("button", name="Undo").click()
        expect(page.locator(".saved-list li a", has_text=title)).to_be_visible()
        expect(rows).to_have_count(count)

    step("remove and undo", remove_and_undo)

    def live():
        reel("fav", "add", "movie", "27205", "--user", "ann")
        expect(page.locator('.saved-list li[data-key="movie:27205"]')).to_be_visible()

    step("a reel fav add in a shell appears without a reload", live)

    def hostile_text():
        # Markup in TMDb's texts (the search, then the title's details): shown as text, never run.
        fault("kind=markup&count=20")
        page.goto(BASE + "/#/search?q=godfather")
        expect(page.locator(".card").first).to_be_visible()
        text = page.locator("main").inner_text()
        assert "<script>" in text, f"the title with markup is not shown as text: {text[:300]!r}"
        assert page.evaluate("window.reelPwned") is None, "markup from TMDb ran"
        assert page.locator("main script, main img[src='x'], main b").count() == 0, "markup from TMDb became elements"
        page.locator(".card a.open").first.click()
        expect(page.locator("h1")).to_contain_text("<script>")
        assert page.evaluate("window.reelPwned") is None, "markup in the details ran"
        control("/__reset")
        # Terminal escapes, a forged line and bidi overrides: the words stay, the characters go.
        fault("kind=hostile&count=5&path=/search")
        page.goto(BASE + "/#/search?q=inception")
        expect(page.locator(".card .title", has_text="FORGED LINE").first).to_be_visible()
        text = page.locator("main").inner_text()
        assert not re.search("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]", text), f"control or bidi characters reached the page: {text[:300]!r}"
        shot(page, "hostile")
        control("/__reset")

    step("hostile titles show as text", hostile_text)

    def language():
        page.goto(BASE + "/#/settings")
        page.locator("#language").select_option("de")
        expect(page.locator("#toast")).to_contain_text("Language")
        page.goto(BASE + "/#/movies")
        page.locator("details.genres summary").click()
        expect(page.locator("details.genres .menu")).to_contain_text("Komödie")
        page.locator("details.genres summary").click()

    step("switch the language", language)

    def genres_and_sort():
        page.goto(BASE + "/#/movies")
        page.locator("details.genres summary").click()
        menu = page.locator("details.genres .menu")
        menu.get_by_label("Drama", exact=True).check()
        menu.get_by_label("Krimi", exact=True).check()
        with page.expect_response(lambda r: "/v1/catalog/movie?" in r.url and r.url.count("genre=") == 2):
            menu.get_by_role("button", name="Apply").click()
        expect(page.locator("details.genres summary")).to_have_text("Genres (2)")
        expect(page.locator(".card").first).to_be_visible()
        with page.expect_response(lambda r: "/v1/catalog/movie?" in r.url and "sort=rating" in r.url):
            page.locator("#sort").select_option("rating")
        expect(page.locator(".card").first).to_be_visible()
        assert "genre=" in page.url and "sort=rating" in page.url, f"the address keeps the choice: {page.url}"

    step("sort and several genres", genres_and_sort)

    def saved_search_and_sort():
        page.goto(BASE + "/#/saved")
        rows = page.locator(".saved-list li")
        expect(rows.first).to_be_visible()
        total = rows.count()
        page.locator("#saved-search").fill("zzzz-nothing")
        expect(page.locator("main")).to_contain_text("Nothing saved matches.")
        page.locator("#saved-search").fill("")
        expect(rows).to_have_count(total)
        with page.expect_response(lambda r: "/v1/saved?" in r.url and "sort=title" in r.url):
            page.locator("#saved-search-sort").select_option("title")
        expect(rows).to_have_count(total)

    step("search and sort the saved list", saved_search_and_sort)

    def name():
        page.goto(BASE + "/#/settings")
        hostile = '<img src=x onerror="window.reelPwned=4">Ann'
        page.locator("#name").fill(hostile)
        page.get_by_role("button", name="Save name").click()
        expect(page.locator("#who")).to_contain_text(hostile)
        assert page.evaluate("window.reelPwned") is None, "a name with markup ran"
        assert page.locator("#who img[src='x']").count() == 0

    step("a name with markup shows as text", name)

    def photo():
        page.goto(BASE + "/#/settings")
        photo_file = ART / "photo.png"
        png(photo_file)
        page.locator("#photo-file").set_input_files(str(photo_file))
        expect(page.locator("img.photo")).to_be_visible()
        wait_for(lambda: page.evaluate("document.querySelector('img.photo').naturalWidth") > 0, "the photo to show")
        expect(page.locator("#who img")).to_be_visible()
        shot(page, "settings")

    step("upload a photo and see it", photo)

    def time_travel():
        page.goto(BASE + "/#/history")
        slider = page.locator("#version")
        expect(slider).to_be_visible()
        last = int(slider.get_attribute("max"))
        slider.fill("1")
        expect(page.locator("main")).to_contain_text("0 saved then")
        slider.fill(str(last))
        expect(page.locator("main")).to_contain_text(f"{len(saved_ids())} saved then")
        shot(page, "history")

    step("time travel", time_travel)

    def about():
        page.goto(BASE + "/#/about")
        expect(page.locator("main")).to_contain_text("not endorsed or certified by TMDb")
        shot(page, "about")

    step("about and TMDb's attribution", about)

    def phone():
        phone_context = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=context.storage_state())
        small = phone_context.new_page()
        watch(small)
        for name, hash in [("movies", "#/movies"), ("search", "#/search?q=matrix"), ("details", "#/title/movie/603"), ("saved", "#/saved"), ("settings", "#/settings"), ("history", "#/history"), ("about", "#/about")]:
            small.goto(BASE + "/" + hash)
            expect(small.locator("main h1").first).to_be_visible()
            small.wait_for_load_state("networkidle")
            shot(small, name)
            width = small.evaluate("document.documentElement.scrollWidth")
            wide = small.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 390).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)")
            assert width <= 390, f"{name} is {width} px wide at 390: {wide}"
        phone_context.close()

    step("readable at phone width", phone)

    def keyboard():
        page.goto(BASE + "/#/movies")
        page.reload()
        expect(page.locator(".card").first).to_be_visible()
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.textContent")
        assert "Skip" in focused, f"the first Tab reaches {focused!r}"
        unlabelled = page.evaluate("[...document.querySelectorAll('button, input, select')].filter(e => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim())).length")
        assert unlabelled == 0, f"{unlabelled} controls have no label"
        # Enter on the skip link moves to the content; Tab then reaches the first control there.
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "sort", "Tab after the skip link does not reach the list's controls"
        # A tab chosen from the keyboard: the new view's content has the focus.
        page.locator('.tabs a[data-tab="series"]').focus()
        page.keyboard.press("Enter")
        expect(page.locator("h1")).to_have_text("Series")
        assert page.evaluate("document.activeElement.id") == "main", "the focus stayed on the tab"

    step("keyboard and labels", keyboard)

    def link_while_signed_in():
        def new_link():
            return json.loads(reel("token", "create", "--user", "ann", "--link", "--url", BASE, "--json"))["link"]

        def live_sessions():
            tokens = json.loads(reel("token", "list", "--user", "ann", "--json"))["tokens"]
            return [t["id"] for t in tokens if t["kind"] == "session" and t["revokedAt"] is None]

        before = live_sessions()
        page.goto(new_link())  # the same page: only the fragment changes
        expect(page.locator("main h1")).to_have_text("Sign in with this link?")
        assert "reel_" not in page.url and "reel_" not in page.title(), f"the secret is in sight: {page.url} {page.title()}"
        page.get_by_role("button", name="Stay signed in as ann").click()
        expect(page.locator(".card").first).to_be_visible()
        assert live_sessions() == before, "staying changed the sessions"
        page.goto(new_link())
        page.get_by_role("button", name="Sign in with the link").click()
        expect(page.locator(".card").first).to_be_visible()
        after = live_sessions()
        assert len(after) == 1 and after != before, f"one browser, one session: {before} -> {after}"

    step("a link opened while signed in asks first, and replaces the session", link_while_signed_in)

    def csrf():
        before = saved_ids()
        allowed.append((403, r"^/v1/favorites$"))
        other = context.new_page()
        port = evil.server_address[1]
        with other.expect_response(lambda r: r.url == BASE + "/v1/favorites") as answer:
            other.goto(f"http://127.0.0.1:{port}/")
        assert answer.value.status == 403, f"a cross-origin form post with the cookie was answered {answer.value.status}"
        assert saved_ids() == before, "the cross-origin post changed the list"
        other.close()
        allowed.pop()

    step("a cross-origin form post with the cookie is refused", csrf)

    def delete_account():
        page.goto(BASE + "/#/settings")
        allowed.extend([(401, r"^/v1/")])
        page.locator("#confirm").fill("an")
        expect(page.get_by_role("button", name="Delete my account")).to_be_disabled()
        page.locator("#confirm").fill("ann")
        page.get_by_role("button", name="Delete my account").click()
        expect(page.locator("main")).to_contain_text("Sign in to Reel")
        status = page.evaluate("fetch('/v1/session').then(r => r.status)")
        assert status == 401, f"the old cookie was answered {status}"
        assert status_with_token("/v1/session", config["token"]) == 401, "the account's bearer token still works"
        page.reload()
        expect(page.locator("main")).to_contain_text("Sign in to Reel")
        shot(page, "signed-out")

    step("delete the account: its cookie and tokens are refused", delete_account)
    browser.close()

evil.shutdown()
print("browser check passed", flush=True)

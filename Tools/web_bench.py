#!/usr/bin/env python3
"""The web app's speed in headless Chromium (Debian's, driven by Playwright), for
`reel-bench web`: the page weight (HTML, CSS and JavaScript as the first visit transfers them,
before images), and the time to first render of the Movies tab and of the Saved tab (the first
row in the page, from the start of navigation) over reloads from a warm cache.

    web_bench.py '{"url": ..., "link": ..., "renders": 10}'

Prints one JSON document: {"weight": {"html": B, "css": B, "js": B, "images": B},
"renders": {"movies": [ms, ...], "saved": [ms, ...]}}."""
import json, os, sys

from playwright.sync_api import sync_playwright

config = json.loads(sys.argv[1])
BASE = config["url"].rstrip("/")
RENDERS = int(config.get("renders", 10))

# Set before any of the page's scripts run: the moment the first row of a list is in the page.
FIRST_ROW = """
window.__firstRow = null;
new MutationObserver((_, observer) => {
  if (document.querySelector('.card, .saved-list li')) { window.__firstRow = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, childList: true });
"""

def first_row(page):
    """The page's first-row time, once there is one (polled: a waiting function would be
    evaluated from a string, which the page's policy forbids)."""
    for _ in range(3000):
        value = page.evaluate("window.__firstRow")
        if value is not None:
            return value
        page.wait_for_timeout(5)
    raise SystemExit("no row appeared within 15 s")


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=os.environ.get("REEL_CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.add_init_script(FIRST_ROW)
    weight = {"html": 0, "css": 0, "js": 0, "images": 0}

    def kind(url):
        path = url.removeprefix(BASE).split("#")[0].split("?")[0]
        if path == "/":
            return "html"
        if path.startswith("/app/") and path.endswith(".css"):
            return "css"
        if path.startswith("/app/") and path.endswith(".js"):
            return "js"
        if path.startswith("/images/") or path.endswith(".svg"):
            return "images"
        return None

    def count(response):
        kind_of = kind(response.url)
        if kind_of and response.status == 200:
            # What the answer says it sends (the service always says): the browser keeps no
            # body of a module it preloaded.
            weight[kind_of] += int(response.headers.get("content-length", "0"))

    page.on("response", count)
    page.goto(config["link"])
    page.wait_for_selector(".card")
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", count)

    renders = {}
    for name, address in [("movies", "#/movies"), ("saved", "#/saved")]:
        page.goto(BASE + "/" + address)
        first_row(page)
        page.wait_for_load_state("networkidle")
        times = []
        for _ in range(RENDERS):
            page.reload()
            times.append(first_row(page))
            page.wait_for_load_state("networkidle")
        renders[name] = times
    browser.close()

print(json.dumps({"weight": weight, "renders": renders}))

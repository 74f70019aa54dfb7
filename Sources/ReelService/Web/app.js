// Reel's web app: signs the browser in with a one-time link, then routes between the tabs
// (#/movies, #/series, #/search, #/saved, #/settings, #/history, #/about, #/title/movie/550),
// keeps the header's account, and follows the account's events live.
import { api, ProblemError } from "./api.js";
import { h, fill } from "./dom.js";
import { markSaved, keyOf, say } from "./shared.js";
import { browse } from "./browse.js";
import { search } from "./search.js";
import { saved } from "./saved.js";
import { details } from "./details.js";
import { settings } from "./settings.js";
import { historyView } from "./history.js";
import { about } from "./about.js";

const main = document.getElementById("main");
let session = null, cleanup = null, controller = null, events = null;

// The skip link moves the focus to the content (its #main must not become a route).
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

const LINK = /^#signin=(reel_[A-Za-z0-9_-]{43})$/;

async function start() {
  // A sign-in link: its secret leaves the address bar (and history) before anything else.
  const link = takeLink();
  try {
    ({ data: { session } } = await api("/v1/session"));
  } catch (error) {
    session = null;
    if (!link) return signIn(error instanceof ProblemError && error.status === 401 ? null : error.message);
  }
  if (link) return openLink(link);
  begin();
}

/** The secret of a sign-in link in the address, taken out of it (and out of history). */
function takeLink() {
  const match = location.hash.match(LINK);
  if (match) history.replaceState(null, "", location.pathname + "#/movies");
  return match?.[1] ?? null;
}

/**
 * Spends a sign-in link. A browser signed in already asks first: a link someone else sent
 * would otherwise move it into their account without a word (the old session is revoked by the
 * service when the new one is made).
 */
async function openLink(secret) {
  if (session) {
    const proceed = h("button", { type: "button", class: "primary" }, "Sign in with the link");
    const stay = h("button", { type: "button" }, `Stay signed in as ${session.user}`);
    fill(main, h("section", { class: "signin" }, h("h1", {}, "Sign in with this link?"),
      h("p", {}, `This browser is signed in as ${session.user}. The link signs it in to the account it was made for instead;`,
        " what you save afterwards goes to that account."),
      h("div", { class: "bar" }, proceed, stay)));
    const choice = await new Promise((resolve) => {
      proceed.addEventListener("click", () => resolve(true));
      stay.addEventListener("click", () => resolve(false));
    });
    if (!choice) return begin();
  }
  try {
    ({ data: { session } } = await api("/v1/session", { method: "POST", body: { link: secret } }));
  } catch (error) {
    session = null;
    return signIn(error.message);
  }
  events?.close();
  begin();
}

let begun = false;

// A link opened in a tab that has the app already (signed in or not) is spent too, never shown.
window.addEventListener("hashchange", () => {
  const link = takeLink();
  if (link) openLink(link);
  else route();
});

/** The signed-in app: the header's account, the live events, the view the address names. */
function begin() {
  document.querySelector(".tabs").hidden = false;
  profile();
  follow();
  if (!begun) {
    begun = true;
    document.addEventListener("reel:profile", profile);
    document.addEventListener("keydown", (event) => {
      if (event.key === "/" && !/^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement?.tagName)) {
        event.preventDefault();
        location.hash = "#/search";
      }
    });
  }
  route();
}

/** The page for a browser that is not signed in: how to get a link. */
function signIn(problem) {
  events?.close();
  document.querySelector(".tabs").hidden = true;
  fill(document.getElementById("who"));
  fill(main, h("section", { class: "signin" }, h("h1", {}, "Sign in to Reel"),
    problem ? h("div", { class: "error", role: "alert" }, problem) : null,
    h("p", {}, "Ask for a sign-in link where Reel runs, then open it here within 15 minutes:"),
    h("p", {}, h("code", {}, "reel token create --user YOUR-HANDLE --link")),
    h("p", { class: "quiet" }, "A link works once. This browser then stays signed in for 30 days, until you sign out or the session is revoked.")));
}

/** The header's account: photo and name. */
async function profile() {
  const who = document.getElementById("who");
  try {
    const { data } = await api("/v1/settings");
    fill(who, data.photo ? h("img", { src: `/v1/settings/photo?t=${Date.now()}`, alt: "" }) : null,
      h("span", { class: "name" }, data.name || session.user));
  } catch {
    fill(who, h("span", { class: "name" }, session.user));
  }
}

/**
 * The account's events from now on, live: hearts follow, and the views that show them hear of
 * it. The stream starts after the account's last event (the page has just read the rest), not
 * at its first: an account of 5,000 titles would send them all on every load.
 */
async function follow() {
  let after = 0;
  try {
    const { data } = await api("/v1/history?limit=1");
    after = data.events.at(-1)?.streamVersion ?? 0;
  } catch {
    // Without it the stream starts at the first event: slower, and still right.
  }
  events = new EventSource(`/v1/events?after=${after}`);
  for (const type of ["favorite-added", "favorite-removed"]) {
    events.addEventListener(type, (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      const { mediaType, id } = data.payload ?? {};
      if (!mediaType || !id) return;
      const key = keyOf(mediaType, id);
      markSaved(key, type === "favorite-added");
      document.dispatchEvent(new CustomEvent("reel:changed", { detail: { type, key } }));
    });
  }
  events.addEventListener("account-deleted", () => signedOut("The account was deleted."));
  events.addEventListener("error", () => {
    // The browser reconnects by itself; a session that ended is found on the next request.
    if (events.readyState === EventSource.CLOSED) api("/v1/session").catch(() => signIn("Your session ended; sign in again."));
  });
}

function signedOut(message) {
  session = null;
  signIn(message);
}

/** Shows the view the address names. */
async function route() {
  if (!session) return;
  cleanup?.();
  controller?.abort();
  controller = new AbortController();
  const [path, text] = location.hash.replace(/^#/, "").split("?");
  const query = new URLSearchParams(text ?? "");
  const parts = path.split("/").filter(Boolean);
  const tab = parts[0] || "movies";
  for (const a of document.querySelectorAll(".tabs a")) {
    if (a.dataset.tab === tab) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const context = { query, signal: controller.signal, session, signedOut, navigate: (hash) => { location.hash = hash; } };
  const views = {
    movies: () => browse(main, { ...context, mediaType: "movie" }),
    series: () => browse(main, { ...context, mediaType: "tv" }),
    search: () => search(main, context),
    saved: () => saved(main, context),
    settings: () => settings(main, context),
    history: () => historyView(main, context),
    about: () => about(main),
    title: () => /^(movie|tv)$/.test(parts[1]) && /^[1-9][0-9]{0,15}$/.test(parts[2] ?? "")
      ? details(main, { ...context, mediaType: parts[1], id: parts[2] }) : missing(),
  };
  const known = Object.hasOwn(views, tab);
  document.title = known ? `${tab[0].toUpperCase()}${tab.slice(1)} · Reel` : "Reel";
  // The new view's content has the focus (a screen reader starts there; a view may move it on).
  if (document.activeElement !== document.body && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
  try {
    cleanup = await (known ? views[tab] : missing)();
  } catch (error) {
    if (error.name === "AbortError") return;
    if (error instanceof ProblemError && error.status === 401) return signIn("Your session ended; sign in again.");
    say(error.message);
  }
}

function missing() {
  fill(main, h("h1", {}, "Not here"), h("p", {}, "Nothing lives at this address. ", h("a", { href: "#/movies" }, "Browse movies")));
}

start();

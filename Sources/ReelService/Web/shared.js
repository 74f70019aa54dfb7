// What every view shares: the toast (with undo), the heart that saves and unsaves a title from
// any list, and a title's card.
import { api, image } from "./api.js";
import { h, fill, clean } from "./dom.js";

const toast = () => document.getElementById("toast");
let toastTimer;

/** Says `message` at the bottom of the page; with `undo`, a button that calls it. */
export function say(message, undo) {
  const box = toast();
  const children = [h("span", {}, message)];
  if (undo) {
    children.push(h("button", { type: "button", onclick: () => { hide(); undo(); } }, "Undo"));
  }
  fill(box, ...children);
  box.classList.add("shown");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hide, undo ? 8000 : 4000);
}

function hide() {
  toast().classList.remove("shown");
}

/** A title's key, as hearts and the event stream name it: "movie:550". */
export const keyOf = (mediaType, id) => `${mediaType}:${id}`;

/** Marks every heart of `key` on the page as saved or not. */
export function markSaved(key, saved) {
  for (const button of document.querySelectorAll(`button.heart[data-key="${CSS.escape(key)}"]`)) {
    button.setAttribute("aria-pressed", saved ? "true" : "false");
    button.textContent = saved ? "♥" : "♡";
    button.setAttribute("aria-label", `${saved ? "Remove" : "Save"} ${button.dataset.title}`);
  }
}

/** Saves (or removes) a title; the hearts follow at once and return if the service refuses. */
export async function setSaved(mediaType, id, title, saved, { quiet = false } = {}) {
  const key = keyOf(mediaType, id);
  markSaved(key, saved);
  try {
    if (saved) await api("/v1/favorites", { method: "POST", body: { mediaType, id } });
    else await api(`/v1/favorites/${mediaType}/${id}`, { method: "DELETE" });
    document.dispatchEvent(new CustomEvent("reel:saved", { detail: { key, saved } }));
    if (!quiet) say(saved ? `Saved ${title}` : `Removed ${title}`, () => setSaved(mediaType, id, title, !saved));
  } catch (error) {
    markSaved(key, !saved);
    say(`Couldn't ${saved ? "save" : "remove"} ${title}: ${error.message}`);
  }
}

/** The heart button of a title. */
export function heart(mediaType, id, title, saved) {
  const button = h("button", {
    type: "button", class: "heart", "aria-pressed": saved ? "true" : "false",
    "aria-label": `${saved ? "Remove" : "Save"} ${title}`, dataset: { key: keyOf(mediaType, id), title: clean(title) },
  }, saved ? "♥" : "♡");
  button.addEventListener("click", (event) => {
    event.preventDefault();
    setSaved(mediaType, id, title, button.getAttribute("aria-pressed") !== "true");
  });
  return button;
}

/** A score out of 10 (TMDb's rating) with its colour, or nothing. */
export function score(value) {
  if (typeof value !== "number" || value <= 0) return null;
  const tone = value >= 7 ? "good" : value >= 5 ? "mid" : "bad";
  return h("span", { class: `score ${tone}`, title: "TMDb rating" }, `★ ${value.toFixed(1)}`);
}

/** The card of a title in a list: poster, title, year and rating, and its heart. */
export function card(item) {
  const mediaType = item.mediaType === "tv" ? "tv" : "movie";
  const title = clean(item.title ?? item.originalTitle ?? `${mediaType} ${item.id}`);
  const poster = image("poster", "w342", item.posterPath);
  return h("li", { class: "card" },
    h("a", { class: "open", href: `#/title/${mediaType}/${item.id}` },
      poster ? h("img", { class: "poster", src: poster, alt: "", loading: "lazy", decoding: "async", width: "342", height: "513" })
        : h("div", { class: "poster", role: "presentation" }),
      h("span", { class: "meta" },
        h("span", { class: "title" }, title),
        h("span", { class: "sub" }, [item.year ? String(item.year) : null, mediaType === "tv" ? "Series" : null].filter(Boolean).join(" · ")),
        score(item.voteAverage))),
    heart(mediaType, item.id, title, !!item.saved));
}

/** An error shown where the content would be, with what to do. */
export function failure(error, retry) {
  return h("div", { class: "error", role: "alert" }, error.message,
    retry ? h("button", { type: "button", onclick: retry }, "Try again") : null);
}

/**
 * Loads pages into `list` as the sentinel after it comes into view: `load(page)` answers
 * `{items, more}`. Returns a function that stops it.
 */
export function infinite(list, sentinel, status, load) {
  let page = 1, busy = false, done = false;
  const observer = new IntersectionObserver(async (entries) => {
    if (!entries.some((e) => e.isIntersecting) || busy || done) return;
    busy = true;
    fill(status, "Loading…");
    try {
      const { items, more } = await load(page);
      list.append(...items);
      page += 1;
      done = !more;
      fill(status, done ? (list.children.length ? "That's all." : "Nothing here.") : "");
    } catch (error) {
      if (error.name === "AbortError") return;
      done = true;
      fill(status, failure(error, () => { done = false; fill(status); observer.unobserve(sentinel); observer.observe(sentinel); }));
    } finally {
      busy = false;
      // Still in view (a short page): load on.
      if (!done) { observer.unobserve(sentinel); observer.observe(sentinel); }
    }
  }, { rootMargin: "600px" });
  observer.observe(sentinel);
  return () => observer.disconnect();
}

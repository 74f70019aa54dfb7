// Search: answers as the reader types (300 ms after the last key), an older answer never
// replacing a newer one; more pages as the reader scrolls.
import { api } from "./api.js";
import { h, fill, debounce } from "./dom.js";
import { card, infinite } from "./shared.js";

export async function search(main, { query, signal }) {
  const input = h("input", { type: "search", id: "q", placeholder: "Titles, series, people…", autocomplete: "off", value: query.get("q") ?? "" });
  const results = h("div", {});
  fill(main, h("h1", {}, "Search"), h("div", { class: "bar", role: "search" }, h("label", { for: "q", class: "sr-only" }, "Search"), input), results);
  let generation = 0, stop = null;

  function run(text) {
    const mine = ++generation;
    stop?.();
    history.replaceState(null, "", text ? `#/search?q=${encodeURIComponent(text)}` : "#/search");
    if (!text.trim()) { fill(results, h("p", { class: "quiet" }, "Type to search TMDb.")); return; }
    const list = h("ul", { class: "grid", "aria-label": "Results" });
    const sentinel = h("div", { class: "sentinel" });
    const status = h("div", { class: "more", role: "status" });
    fill(results, list, sentinel, status);
    stop = infinite(list, sentinel, status, async (page) => {
      const { data } = await api(`/v1/search?${new URLSearchParams({ q: text, page: String(page) })}`, { signal });
      // A newer search began meanwhile: this answer is stale, drop it.
      if (mine !== generation) return { items: [], more: false };
      const titles = data.results.filter((r) => r.mediaType === "movie" || r.mediaType === "tv");
      return { items: titles.map(card), more: data.page < data.totalPages && data.page < 500 };
    });
  }
  input.addEventListener("input", debounce(() => run(input.value), 300));
  run(input.value);
  input.focus();
  return () => stop?.();
}

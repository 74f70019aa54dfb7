// Saved: the account's list with posters, searched and sorted, each title removed with an undo;
// a page at a time (the service's cursor pages) as the reader scrolls.
import { api, image } from "./api.js";
import { h, fill, clean, debounce, moment } from "./dom.js";
import { failure, setSaved, say } from "./shared.js";

const SORTS = [["added", "Recently added"], ["title", "Title"], ["release", "Release date"], ["rating", "TMDb rating"], ["imdb", "IMDb rating"]];

export async function saved(main, { query, signal }) {
  const sort = h("select", { id: "saved-sort" }, SORTS.map(([v, l]) => h("option", { value: v, selected: v === (query.get("sort") ?? "added") }, l)));
  const search = h("input", { type: "search", id: "saved-search", placeholder: "Find in your list", value: query.get("search") ?? "", autocomplete: "off" });
  const heading = h("h1", {}, "Saved");
  const body = h("div", {});
  fill(main, heading, h("div", { class: "bar" }, h("label", { for: "saved-search", class: "sr-only" }, "Find in your list"), search,
    h("label", { for: "saved-search-sort" }, "Sort"), sort), body);
  sort.id = "saved-search-sort";
  let generation = 0, stop = null;

  function load() {
    const mine = ++generation;
    stop?.();
    const list = h("ul", { class: "saved-list", "aria-label": "Saved titles" });
    const sentinel = h("div", { class: "sentinel" });
    const status = h("div", { class: "more", role: "status" });
    fill(body, list, sentinel, status);
    let next = savedPath(sort.value, search.value);
    const observer = new IntersectionObserver(async (entries) => {
      if (!entries.some((e) => e.isIntersecting) || !next || observer.busy) return;
      observer.busy = true;
      try {
        const { data, link } = await api(next, { signal });
        if (mine !== generation) return;
        if (list.children.length === 0) fill(heading, "Saved", h("span", { class: "quiet" }, ` (${data.total})`));
        list.append(...data.items.map(row));
        next = link;
        fill(status, next ? "" : list.children.length ? "" : search.value ? "Nothing saved matches." : "Nothing saved yet: the ♡ on any title saves it.");
      } catch (error) {
        if (error.name !== "AbortError") { next = null; fill(status, failure(error, load)); }
      } finally {
        observer.busy = false;
        if (next) { observer.unobserve(sentinel); observer.observe(sentinel); }
      }
    }, { rootMargin: "600px" });
    observer.observe(sentinel);
    stop = () => observer.disconnect();
  }

  function row(item) {
    const mediaType = item.mediaType;
    const title = clean(item.title ?? `${mediaType} ${item.id}`);
    const poster = image("poster", "w154", item.posterPath);
    const remove = h("button", { type: "button", "aria-label": `Remove ${title}` }, "Remove");
    const li = h("li", { dataset: { key: `${mediaType}:${item.id}` } },
      poster ? h("img", { src: poster, alt: "", loading: "lazy" }) : h("div", { class: "poster" }),
      h("div", {}, h("a", { href: `#/title/${mediaType}/${item.id}` }, title),
        h("div", { class: "quiet" }, [item.year, mediaType === "tv" ? "Series" : "Movie", item.addedAt ? `saved ${moment(item.addedAt)}` : null].filter(Boolean).join(" · "))),
      remove);
    remove.addEventListener("click", async () => {
      remove.disabled = true;
      try {
        await api(`/v1/favorites/${mediaType}/${item.id}`, { method: "DELETE" });
        li.remove();
        say(`Removed ${title}`, () => setSaved(mediaType, item.id, title, true, { quiet: true }).then(load));
      } catch (error) {
        remove.disabled = false;
        say(`Couldn't remove ${title}: ${error.message}`);
      }
    });
    return li;
  }

  sort.addEventListener("change", load);
  search.addEventListener("input", debounce(load, 300));
  // A title saved or removed elsewhere (another tab, `reel fav add`): the list follows.
  const follow = (event) => {
    const { type, key } = event.detail;
    const row = list().querySelector(`li[data-key="${CSS.escape(key)}"]`);
    if (type === "favorite-removed") row?.remove();
    else if (type === "favorite-added" && !row) load();
  };
  const list = () => body.querySelector(".saved-list") ?? document.createElement("ul");
  document.addEventListener("reel:changed", follow);
  load();
  return () => { stop?.(); document.removeEventListener("reel:changed", follow); };
}

function savedPath(sort, search) {
  const params = new URLSearchParams({ limit: "60", sort });
  if (search.trim()) params.set("search", search.trim());
  return `/v1/saved?${params}`;
}

// Movies and Series: TMDb's discover list with posters, sorted and filtered by genres, a page at
// a time as the reader scrolls.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { card, infinite, failure } from "./shared.js";

const ORDERS = [
  ["popularity", "Most popular"], ["rating", "Best rated"], ["votes", "Most votes"], ["release", "Newest"], ["title", "Title A–Z"], ["revenue", "Revenue"],
];

export async function browse(main, { mediaType, query, signal, navigate }) {
  const noun = mediaType === "tv" ? "Series" : "Movies";
  const order = ORDERS.some(([v]) => v === query.get("sort")) ? query.get("sort") : "popularity";
  const chosen = query.getAll("genre");
  const sort = h("select", { id: "sort", onchange: () => update({ sort: sort.value }) },
    ORDERS.filter(([v]) => mediaType === "movie" || v !== "revenue").map(([value, label]) => h("option", { value, selected: value === order }, label)));
  const genreBox = h("div", { class: "menu", role: "group", "aria-label": "Genres" });
  const genreSummary = h("summary", {}, chosen.length ? `Genres (${chosen.length})` : "All genres");
  const genres = h("details", { class: "genres" }, genreSummary, genreBox);
  const list = h("ul", { class: "grid", "aria-label": noun });
  const sentinel = h("div", { class: "sentinel" });
  const status = h("div", { class: "more", role: "status" });
  fill(main,
    h("h1", {}, noun),
    h("div", { class: "bar" }, h("label", { for: "sort" }, "Sort"), sort, genres),
    list, sentinel, status);

  function update(change) {
    const next = new URLSearchParams(query);
    if (change.sort) next.set("sort", change.sort);
    if (change.genres) {
      next.delete("genre");
      for (const g of change.genres) next.append("genre", g);
    }
    navigate(`#/${mediaType === "tv" ? "series" : "movies"}?${next}`);
  }

  api(`/v1/genres?type=${mediaType}`, { signal }).then(({ data }) => {
    const all = (data?.[mediaType] ?? []).slice().sort((a, b) => a.name.localeCompare(b.name));
    fill(genreBox, all.map((g) => h("label", {},
      h("input", { type: "checkbox", value: String(g.id), checked: chosen.includes(String(g.id)) }), g.name)),
      h("button", { type: "button", class: "primary", onclick: () => update({ genres: [...genreBox.querySelectorAll("input:checked")].map((i) => i.value) }) }, "Apply"));
  }).catch((error) => { if (error.name !== "AbortError") fill(genreBox, failure(error)); });

  return infinite(list, sentinel, status, async (page) => {
    const params = new URLSearchParams({ sort: order, page: String(page) });
    for (const g of chosen) params.append("genre", g);
    if (order === "title") params.set("descending", "false");
    const { data } = await api(`/v1/catalog/${mediaType}?${params}`, { signal });
    return { items: data.results.map(card), more: data.page < data.totalPages && data.page < 500 };
  });
}

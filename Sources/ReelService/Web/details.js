// A title: backdrop, poster, facts, scores and awards, the people, similar titles and trailers,
// and its heart.
import { api, image } from "./api.js";
import { h, fill, clean, day } from "./dom.js";
import { heart, score, failure, card } from "./shared.js";

export async function details(main, { mediaType, id, signal }) {
  fill(main, h("p", { class: "quiet", role: "status" }, "Loading…"));
  let data;
  try {
    ({ data } = await api(`/v1/catalog/${mediaType}/${id}?similar=true`, { signal }));
  } catch (error) {
    if (error.name !== "AbortError") fill(main, failure(error, () => details(main, { mediaType, id, signal })));
    return;
  }
  const title = clean(data.title ?? data.originalTitle);
  const backdrop = image("backdrop", "w1280", data.backdropPath);
  const poster = image("poster", "w500", data.posterPath);
  const omdb = data.omdb;
  const facts = [
    data.date ? day(data.date) : null, data.runtime ? `${data.runtime} min` : null,
    data.seasons ? `${data.seasons} seasons` : null, omdb?.rated, data.status,
  ].filter(Boolean);
  const scores = [
    score(data.voteAverage),
    omdb?.imdbRating ? h("span", { title: "IMDb rating" }, `IMDb ${omdb.imdbRating.toFixed(1)}`) : null,
    omdb?.tomatometer != null ? h("span", { title: "Rotten Tomatoes" }, `Rotten Tomatoes ${omdb.tomatometer}%`) : null,
    omdb?.metascore != null ? h("span", { title: "Metacritic" }, `Metacritic ${omdb.metascore}`) : null,
  ].filter(Boolean);
  const people = (data.people ?? []).filter((p) => p.names.length);
  fill(main,
    backdrop ? h("img", { class: "backdrop", src: backdrop, alt: "" }) : null,
    h("article", { class: "details" },
      h("div", {}, poster ? h("img", { class: "poster", src: poster, alt: `Poster of ${title}` }) : h("div", { class: "poster" })),
      h("div", {},
        h("h1", {}, title, data.year || data.date ? h("span", { class: "quiet" }, ` (${(data.date ?? "").slice(0, 4)})`) : null),
        data.tagline ? h("p", { class: "quiet" }, h("em", {}, data.tagline)) : null,
        h("div", { class: "facts" }, facts.map((f) => h("span", {}, f))),
        h("div", { class: "facts" }, scores),
        h("div", { class: "bar" }, (() => {
          const b = heart(mediaType, data.id, title, !!data.saved);
          b.classList.remove("heart");
          b.classList.add("heart-inline");
          return b;
        })()),
        data.genres?.length ? h("ul", { class: "chips", "aria-label": "Genres" }, data.genres.map((g) => h("li", {}, g))) : null,
        data.overview ? h("p", {}, data.overview) : null,
        omdb?.awards?.text ? h("p", {}, h("strong", {}, "Awards: "), omdb.awards.text) : null,
        people.map((p) => h("p", {}, h("strong", {}, `${p.role}: `), p.names.join(", "))),
        data.cast?.length ? [h("h2", {}, "Cast"), h("ul", { class: "chips" }, data.cast.map((c) => h("li", {}, c.character ? `${c.name} as ${c.character}` : c.name)))] : null,
        data.trailers?.length ? [h("h2", {}, "Trailers"), h("ul", {}, data.trailers.map((t) => h("li", {},
          /^https:\/\//.test(t.url) ? h("a", { href: t.url, rel: "noopener noreferrer", target: "_blank" }, t.name) : t.name)))] : null)),
    data.similar?.length ? [h("h2", {}, "Similar"), h("ul", { class: "grid" }, data.similar.map(card))] : null);
  main.focus({ preventScroll: true });
}

// History: the account's events, newest first, and a slider over its versions that shows the
// saved list and settings as they were at each one (time travel).
import { api, image } from "./api.js";
import { h, fill, clean, moment } from "./dom.js";
import { failure } from "./shared.js";

export async function historyView(main, { signal }) {
  fill(main, h("h1", {}, "History"), h("p", { class: "quiet", role: "status" }, "Loading…"));
  let events;
  try {
    ({ data: { events } } = await api("/v1/history", { signal }));
  } catch (error) {
    if (error.name !== "AbortError") fill(main, h("h1", {}, "History"), failure(error));
    return;
  }
  const last = events.reduce((m, e) => Math.max(m, e.streamVersion), 1);
  const slider = h("input", { type: "range", id: "version", min: "1", max: String(last), value: String(last), step: "1" });
  const label = h("output", { for: "version" });
  const then = h("div", { "aria-live": "polite" });
  const log = h("ol", { class: "history", reversed: true },
    events.slice().reverse().map((e) => h("li", {}, h("time", { datetime: e.recordedAt }, moment(e.recordedAt)), h("span", {}, e.summary ?? e.type))));
  fill(main, h("h1", {}, "History"),
    h("section", {}, h("h2", {}, "Travel in time"),
      h("div", { class: "slider" }, h("label", { for: "version" }, "Version"), slider, label), then),
    h("section", {}, h("h2", {}, `Every change (${events.length})`), log));

  let generation = 0;
  async function show() {
    const version = Number(slider.value);
    const mine = ++generation;
    const event = events.find((e) => e.streamVersion === version);
    fill(label, `v${version} of ${last}${event ? ` · ${moment(event.recordedAt)}` : ""}`);
    try {
      const { data } = await api(`/v1/saved?asOf=v${version}&limit=200`, { signal });
      if (mine !== generation) return;
      fill(then,
        h("p", {}, event ? clean(event.summary ?? event.type) : "", " — ", h("strong", {}, `${data.total} saved then`)),
        data.items.length ? h("ul", { class: "saved-list" }, data.items.map((item) => {
          const poster = image("poster", "w92", item.posterPath);
          return h("li", {}, poster ? h("img", { src: poster, alt: "", loading: "lazy" }) : h("div", {}),
            h("a", { href: `#/title/${item.mediaType}/${item.id}` }, item.title ?? `${item.mediaType} ${item.id}`), h("span", {}));
        })) : null);
    } catch (error) {
      if (error.name !== "AbortError" && mine === generation) fill(then, failure(error));
    }
  }
  slider.addEventListener("input", show);
  show();
}

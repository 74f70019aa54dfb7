// About: what Reel is, where its data comes from (TMDb's attribution, as its terms ask), and
// how this page treats the account.
import { h, fill } from "./dom.js";

export function about(main) {
  fill(main, h("h1", {}, "About Reel"),
    h("p", {}, "Reel keeps your movie and series favorites and your settings as a ledger: every change is an event in an append-only log, ",
      "so the list can be replayed as of any moment, exported, verified, and forgotten for good when the account is deleted."),
    h("h2", {}, "Data"),
    h("p", {}, "This product uses the TMDb API but is not endorsed or certified by TMDb. Titles, images, people and genres come from ",
      h("a", { href: "https://www.themoviedb.org/", rel: "noopener noreferrer", target: "_blank" }, "The Movie Database (TMDb)"),
      ". Scores and awards come from ", h("a", { href: "https://www.omdbapi.com/", rel: "noopener noreferrer", target: "_blank" }, "OMDb"),
      " (CC BY-NC 4.0) when the operator set a key. Without TMDb credentials Reel shows its sample catalog and its own drawn art."),
    h("h2", {}, "Privacy"),
    h("p", {}, "Images come through Reel, never from TMDb's servers to your browser. Your session lives in a cookie no script can read; ",
      "nothing of your account appears in an address or a log. Sessions are listed and revoked with 'reel token list' and 'reel token revoke'."),
    h("h2", {}, "Keys"),
    h("ul", {}, ["Tab and Shift+Tab move between controls; Enter opens a title.", "Space on a ♡ saves or removes the title.", "/ jumps to search."].map((t) => h("li", {}, t))));
}

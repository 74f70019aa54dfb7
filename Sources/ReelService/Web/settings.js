// Settings: the photo (uploaded, shown, removed), the name, the language every title and genre
// follows, the history, signing out, and deleting the account with its handle typed to confirm.
import { api } from "./api.js";
import { h, fill, clean } from "./dom.js";
import { failure, say } from "./shared.js";

export async function settings(main, { signal, session, signedOut }) {
  fill(main, h("h1", {}, "Settings"), h("p", { class: "quiet", role: "status" }, "Loading…"));
  let current, languages;
  try {
    [{ data: current }, { data: languages }] = await Promise.all([api("/v1/settings", { signal }), api("/v1/languages", { signal })]);
  } catch (error) {
    if (error.name !== "AbortError") fill(main, h("h1", {}, "Settings"), failure(error));
    return;
  }
  const handle = session.user;
  const photo = h("img", { class: "photo", alt: "Your photo", hidden: !current.photo });
  const refreshPhoto = (has) => { photo.hidden = !has; if (has) photo.src = `/v1/settings/photo?t=${Date.now()}`; };
  refreshPhoto(!!current.photo);
  const file = h("input", { type: "file", id: "photo-file", accept: "image/jpeg,image/png" });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    try {
      await api("/v1/settings/photo", { method: "PUT", body: chosen });
      refreshPhoto(true);
      document.dispatchEvent(new CustomEvent("reel:profile"));
      say("Photo changed");
    } catch (error) { say(`Couldn't change the photo: ${error.message}`); }
    file.value = "";
  });
  const removePhoto = h("button", { type: "button", onclick: async () => {
    try { await api("/v1/settings/photo", { method: "DELETE" }); refreshPhoto(false); document.dispatchEvent(new CustomEvent("reel:profile")); say("Photo removed"); }
    catch (error) { say(`Couldn't remove the photo: ${error.message}`); }
  } }, "Remove photo");

  const name = h("input", { type: "text", id: "name", value: current.name ?? "", maxlength: "100", autocomplete: "name" });
  const nameForm = h("form", { class: "bar" }, h("label", { for: "name" }, "Name"), name, h("button", { type: "submit", class: "primary" }, "Save name"));
  nameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await api("/v1/settings/name", { method: "PUT", body: { name: name.value } }); document.dispatchEvent(new CustomEvent("reel:profile")); say("Name saved"); }
    catch (error) { say(`Couldn't save the name: ${error.message}`); }
  });

  const language = h("select", { id: "language" }, languages.languages.map((l) =>
    h("option", { value: l.code, selected: current.language.split("-")[0] === l.code }, `${l.name} (${l.code})`)));
  language.addEventListener("change", async () => {
    try {
      await api("/v1/settings/language", { method: "PUT", body: { language: language.value } });
      say(`Language: ${clean(language.selectedOptions[0].textContent)}. Titles and genres follow it.`);
    } catch (error) { say(`Couldn't change the language: ${error.message}`); }
  });

  const confirm = h("input", { type: "text", id: "confirm", autocomplete: "off", spellcheck: "false" });
  const destroy = h("button", { type: "submit", class: "danger", disabled: true }, "Delete my account");
  confirm.addEventListener("input", () => { destroy.disabled = confirm.value !== handle; });
  const deleteForm = h("form", {}, h("p", {},
    "Deleting the account destroys its key: its favorites and settings can never be read again, by anyone. Type ", h("code", {}, handle), " to confirm."),
    h("div", { class: "bar" }, h("label", { for: "confirm", class: "sr-only" }, "Your handle"), confirm, destroy));
  deleteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (confirm.value !== handle) return;
    destroy.disabled = true;
    try { await api("/v1/account", { method: "DELETE" }); signedOut("The account was deleted for good."); }
    catch (error) { destroy.disabled = false; say(`Couldn't delete the account: ${error.message}`); }
  });

  const signOut = h("button", { type: "button", onclick: async () => {
    try { await api("/v1/session", { method: "DELETE" }); } catch { /* signed out either way */ }
    signedOut("You are signed out.");
  } }, "Sign out");

  fill(main, h("h1", {}, "Settings"), h("div", { class: "settings" },
    h("section", { "aria-labelledby": "s-photo" }, h("h2", { id: "s-photo" }, "Photo"), photo,
      h("div", { class: "bar" }, h("label", { for: "photo-file" }, "Upload a JPEG or PNG"), file, removePhoto)),
    h("section", { "aria-labelledby": "s-name" }, h("h2", { id: "s-name" }, "Name"), nameForm),
    h("section", { "aria-labelledby": "s-lang" }, h("h2", { id: "s-lang" }, "Language"),
      h("div", { class: "bar" }, h("label", { for: "language" }, "Titles and genres in"), language),
      languages.sampleCatalog ? h("p", { class: "quiet" }, "Without TMDb credentials the sample catalog shows most languages in English.") : null),
    h("section", { "aria-labelledby": "s-hist" }, h("h2", { id: "s-hist" }, "History"),
      h("p", {}, h("a", { href: "#/history" }, "Every change, and the list as it was at any point"))),
    h("section", { "aria-labelledby": "s-session" }, h("h2", { id: "s-session" }, "This browser"),
      h("p", { class: "quiet" }, `Signed in as ${handle}.`), signOut),
    h("section", { "aria-labelledby": "s-delete" }, h("h2", { id: "s-delete" }, "Delete the account"), deleteForm)));
}

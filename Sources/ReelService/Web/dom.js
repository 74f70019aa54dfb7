// Builds the page from text only. Every text that came from elsewhere (TMDb, OMDb, an import, a
// name someone typed) becomes a text node, never markup, and loses the characters that could
// reorder or hide what is shown: control characters and bidirectional overrides.

const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` as a string safe to show: no control characters, no bidi overrides. */
export function clean(text) {
  return text == null ? "" : String(text).replace(UNSAFE, "");
}

/**
 * An element: `h("a", {href: "#/saved", class: "x", onclick: f}, "text", child)`.
 * Strings become text nodes (cleaned); null, undefined and false are skipped; arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "value") element.value = value;
    else if (name === "checked") element.checked = !!value;
    else element.setAttribute(name, value === true ? "" : clean(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(clean(child)));
  }
}

/** Replaces what `element` holds with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** Calls `f` once `ms` have passed without another call (the last arguments win). */
export function debounce(f, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}

/** A date (2023-12-06) as the reader's locale writes it, or "" without one. */
export function day(text) {
  if (!text) return "";
  const date = new Date(text.length === 10 ? text + "T00:00:00Z" : text);
  return isNaN(date) ? "" : date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

/** A moment (an ISO time) in the reader's time zone. */
export function moment(text) {
  const date = new Date(text);
  return isNaN(date) ? "" : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

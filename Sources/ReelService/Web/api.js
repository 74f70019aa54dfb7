// The JSON API, as any app calls it: same-origin requests that carry the session cookie, a
// problem (RFC 9457) turned into an error with its words.

export class ProblemError extends Error {
  constructor(status, detail, kind) {
    super(detail);
    this.status = status;
    this.kind = kind;
  }
}

/** Calls the service: `body` is sent as JSON, or as it is when it is a Blob (a photo). */
export async function api(path, { method = "GET", body, signal, headers = {} } = {}) {
  const init = { method, headers: { accept: "application/json", ...headers }, credentials: "same-origin", signal };
  if (body instanceof Blob) {
    init.body = body;
    init.headers["content-type"] = body.type || "application/octet-stream";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ProblemError(0, "Reel's service cannot be reached; check that 'reel serve' is running", "unavailable");
  }
  const type = response.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    throw new ProblemError(response.status, data?.detail ?? `the service answered ${response.status}`, data?.kind);
  }
  return { data, link: next(response.headers.get("link")) };
}

/** The next page's address a `Link` header names, if any. */
function next(header) {
  const match = header?.match(/<([^>]+)>;\s*rel="next"/);
  return match ? match[1] : null;
}

/** The address of a TMDb image through Reel (`/images/poster/w342/abc.jpg`), or null. */
export function image(kind, size, path) {
  if (!path || typeof path !== "string") return null;
  const file = path.replace(/^\//, "");
  return /^[A-Za-z0-9_-]{1,123}\.(jpe?g|png)$/i.test(file) ? `/images/${kind}/${size}/${file}` : null;
}

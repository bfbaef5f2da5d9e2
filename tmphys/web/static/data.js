/* The page's data (the #app-data script the build writes: the facts of the game, the book, the machine, the search
 * core, the words) and what is read from it at start: the facts as problems.js reads them, the search core on the
 * page's thread (for set-ups; searches run in the worker, best.js), the stack's reader.
 */
export const D = JSON.parse(document.getElementById("app-data").textContent);

export function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const unzipped = (b64) => new Response(new Blob([bytesOf(b64)]).stream().pipeThrough(new DecompressionStream("gzip")));

/** A gzip-compressed text written in base64 (the book, the words, the art, the worker's script), as text. */
export async function gunzip(b64) {
  return unzipped(b64).text();
}

/** The same, as bytes (search.wasm). */
export async function gunzipBytes(b64) {
  return new Uint8Array(await unzipped(b64).arrayBuffer());
}

/** The document parsed (the page's later data is written after its script). */
export const parsed = () => (document.readyState !== "loading" ? Promise.resolve()
  : new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true })));

let lateData = null;
/** The data the page reads once its first screen is drawn (web/table_app.LATE), read into D once parsed. */
export const later = () => (lateData ||= parsed().then(() => {
  const late = document.getElementById("app-data-late");
  if (late) Object.assign(D, JSON.parse(late.textContent));
}));

/**
 * Read at start (main.js): lib, the facts (problems.js's Library); core, the search core; reader, the stack's;
 * wasm, search.wasm's bytes; worker, the search worker's script.
 */
export const facts = { lib: null, core: null, reader: null, wasm: null, worker: null };

let done = null;
const ready = new Promise((resolve) => { done = resolve; });
/** The page says the search core and the book are in (main.js). */
export const loaded = () => done();
/** `f` run now if the search core and the book are in, else once they are (a tap on the first screen meanwhile). */
export const whenLoaded = (f) => (facts.core ? f() : ready.then(f));

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

/** A gzip-compressed text written in base64 (the book, the words, the art), as text. */
export async function gunzip(b64) {
  const stream = new Blob([bytesOf(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** search.wasm's bytes. */
export const WASM = bytesOf(D.wasm);

/** Read at start (main.js): lib, the facts (problems.js's Library); core, the search core; reader, the stack's. */
export const facts = { lib: null, core: null, reader: null };

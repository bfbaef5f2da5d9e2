/* The machine in a page: a stack of three punch cards over a verification card, read as tmphys.cards.stack reads it
 * and drawn from the print files' own pictures. machine.html and the table app use it.
 *
 * The data (tmphys.web.machine_page.machine_data) holds the layout's geometry in mm, the cells each punch card is
 * punched at, the marks each verification card prints, the raster grid of tmphys.cards.stack.Raster and the cards'
 * SVG pictures. Aligned, what shows is the cells all three punch cards are punched at; shifted or turned, it is read
 * pixel by pixel on the same grid as `tmphys stack --shift`.
 */
export const COLOURS = ["blue", "yellow", "purple"];
export const LAYERS = ["blue", "yellow", "purple", "card"];

/** Three digits, or the shapes as tmphys prints them (▲2 ■4 ●1 (241)): the digits, or an Error. */
export function parseCode(text) {
  let s = String(text).trim();
  const shaped = /^▲\s*([0-9])\s*■\s*([0-9])\s*●\s*([0-9])\s*(?:\(([0-9]{3})\))?$/.exec(s);
  if (shaped && (shaped[4] === undefined || shaped[4] === shaped.slice(1, 4).join(""))) s = shaped.slice(1, 4).join("");
  if (!/^[1-5]{3}$/.test(s)) throw new Error(`not a code: '${text}' (want three digits 1..5, e.g. 241)`);
  return [...s].map(Number);
}

/** The stack's reading on one layout. */
export function reader(D) {
  const L = D.layout;
  const CX = L.card_width / 2, CY = L.card_height / 2;
  const OX = L.cells[0][0] - L.cells[0][3] * L.pitch_x, OY = L.cells[0][1] - L.cells[0][2] * L.pitch_y;
  const TABLE = []; // (row + 1, column + 1) -> cell index, -1 around and between cells
  for (let r = 0; r < L.rows + 2; r++) TABLE.push(new Array(L.columns + 2).fill(-1));
  L.cells.forEach((c, i) => { TABLE[c[2] + 1][c[3] + 1] = i; });
  const punchOf = (colour, value) => D.punch[COLOURS.indexOf(colour) * 5 + value - 1];

  function toCard(x, y, p) { // a table point in a layer's own card coordinates (undoing its placement)
    let u = x - p[0] - CX, v = y - p[1] - CY;
    if (p[2]) {
      const t = -p[2] * Math.PI / 180, c = Math.cos(t), s = Math.sin(t);
      [u, v] = [u * c - v * s, u * s + v * c];
    }
    return [u + CX, v + CY];
  }
  function toTable(x, y, p) { // a layer's card point on the table
    const t = p[2] * Math.PI / 180, c = Math.cos(t), s = Math.sin(t), u = x - CX, v = y - CY;
    return [CX + p[0] + u * c - v * s, CY + p[1] + u * s + v * c];
  }
  function nearest(u, v) { // [cell index or -1, offset from its centre]
    const col = Math.round((u - OX) / L.pitch_x), row = Math.round((v - OY) / L.pitch_y);
    const ok = col >= -1 && col <= L.columns && row >= -1 && row <= L.rows;
    const idx = ok ? TABLE[row + 1][col + 1] : -1;
    return [idx, u - (OX + col * L.pitch_x), v - (OY + row * L.pitch_y)];
  }
  function holeSite(x, y, p) { // the cell whose hole outline covers a table point, for a layer at p
    const [u, v] = toCard(x, y, p), [idx, du, dv] = nearest(u, v);
    const hw = L.hole.width / 2, hh = L.hole.height / 2, r = L.hole.radius, ax = Math.abs(du), ay = Math.abs(dv);
    if (ax > hw || ay > hh) return -1;
    if (ax > hw - r && ay > hh - r && (ax - (hw - r)) ** 2 + (ay - (hh - r)) ** 2 > r * r) return -1;
    return idx;
  }
  function markSite(x, y, p) { // the cell whose printed mark lies under a table point, card at p
    const [u, v] = toCard(x, y, p), [idx, du, dv] = nearest(u, v);
    return Math.abs(du) <= L.mark.width / 2 && Math.abs(dv) <= L.mark.height / 2 ? idx : -1;
  }
  const aligned = (p) => !p[0] && !p[1] && !p[2];

  /** What shows: {open: cell numbers (1-based), mark: "pass" | "fail" | "" (unreadable)}. */
  function readStack(code, card, shift) {
    const cards = COLOURS.map((c, k) => punchOf(c, code[k]));
    const count = new Map();
    if (!shift || LAYERS.every((name) => aligned(shift[name]))) {
      L.cells.forEach((_, i) => { if (cards.every((c) => c.holes[i] === "1")) count.set(i, L.hole.width); });
    } else {
      const R = D.raster, ppm = R.px_per_mm, seen = new Uint8Array(R.width * R.height);
      const reach = Math.hypot(L.hole.width, L.hole.height) / 2;
      const blue = cards[0], pb = shift.blue;
      L.cells.forEach((cell, i) => {
        if (blue.holes[i] !== "1") return;
        const [hx, hy] = toTable(cell[0], cell[1], pb);
        const i0 = Math.max(0, Math.floor((hx - reach - R.x0) * ppm)), i1 = Math.min(R.width - 1, Math.ceil((hx + reach - R.x0) * ppm));
        const j0 = Math.max(0, Math.floor((hy - reach - R.y0) * ppm)), j1 = Math.min(R.height - 1, Math.ceil((hy + reach - R.y0) * ppm));
        for (let j = j0; j <= j1; j++) {
          const y = R.y0 + (j + 0.5) / ppm;
          for (let k = i0; k <= i1; k++) {
            if (seen[j * R.width + k]) continue;
            seen[j * R.width + k] = 1;
            const x = R.x0 + (k + 0.5) / ppm;
            let through = true;
            for (let n = 0; n < 3 && through; n++) {
              const site = holeSite(x, y, shift[COLOURS[n]]);
              through = site >= 0 && cards[n].holes[site] === "1";
            }
            if (!through) continue;
            const m = markSite(x, y, shift.card);
            if (m >= 0) count.set(m, (count.get(m) || 0) + 1);
          }
        }
      });
    }
    const open = [...count.keys()].sort((a, b) => a - b);
    const mark = open.length === 1 && card ? (card.face[open[0]] === "1" ? "pass" : "fail") : "";
    return { open: open.map((i) => i + 1), mark };
  }

  return { L, CX, CY, punchOf, readStack, toTable, aligned };
}

const urls = new Map();
export function svgUrl(svg) {
  if (!urls.has(svg)) urls.set(svg, "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg));
  return urls.get(svg);
}

/**
 * The stack drawn in `box`: the four layers' pictures placed, shifted and turned, and a ring round each open cell.
 * `art(kind, index)` gives a card's SVG ("punch", 0..14 or "cards", 0..94). `scale`: pixels per mm. `alt(layer)`: a
 * layer's words for a screen reader ("card", "blue", "yellow", "purple").
 */
export function picture(D, R, box, art, scale = 5, margin = 4,
  alt = (layer) => (layer === "card" ? "verification card" : `${layer} punch card`)) {
  const L = D.layout, F = D.punch[0].frame;
  const VIEW = [F[0] - margin, F[1] - margin, F[2] + 2 * margin, F[3] + 2 * margin];
  box.style.position = "relative";
  box.style.overflow = "hidden";
  const layers = {};
  for (const name of ["card", "blue", "yellow", "purple"]) {
    const img = document.createElement("img");
    img.dataset.layer = name;
    img.alt = alt(name);
    img.style.position = "absolute";
    img.style.pointerEvents = "none";
    box.appendChild(img);
    layers[name] = img;
  }
  const rings = document.createElement("div");
  rings.className = "rings";
  box.appendChild(rings);
  let px = scale;
  function place(img, frame, p) {
    img.style.left = (frame[0] - VIEW[0]) * px + "px";
    img.style.top = (frame[1] - VIEW[1]) * px + "px";
    img.style.width = frame[2] * px + "px";
    img.style.height = frame[3] * px + "px";
    img.style.transformOrigin = `${(R.CX - frame[0]) * px}px ${(R.CY - frame[1]) * px}px`;
    img.style.transform = `translate(${p[0] * px}px, ${p[1] * px}px) rotate(${p[2]}deg)`;
  }
  /** With data-fit, the width the container holds for the picture (0: no fit, or the container not shown). */
  function measure() {
    if (!box.dataset.fit || !box.parentElement) return 0;
    const parent = getComputedStyle(box.parentElement), own = getComputedStyle(box);
    return box.parentElement.clientWidth - parseFloat(parent.paddingLeft) - parseFloat(parent.paddingRight) -
      parseFloat(own.borderLeftWidth) - parseFloat(own.borderRightWidth);
  }
  // The room is measured once it is known and again when the container changes size: measuring it on every show
  // would make the browser lay the page out again each time (a slider dragged, a batch of stacks read).
  let room = 0, last = null;
  if (typeof ResizeObserver !== "undefined" && box.parentElement) {
    new ResizeObserver(() => {
      const now = measure();
      if (now !== room) { room = now; if (last) show(...last); }
    }).observe(box.parentElement);
  }
  /** Draw code (digits) over card (a data card, or null), each layer at shift[layer]; ring the open cells. */
  function show(code, card, shift, open) {
    // data-fit: as big as `scale`, or as its container holds (a phone's screen), never cropped
    last = [code, card, shift, open];
    if (!room) room = measure();
    px = room ? Math.min(scale, room / VIEW[2]) : scale;
    box.style.width = VIEW[2] * px + "px";
    box.style.height = VIEW[3] * px + "px";
    COLOURS.forEach((c, i) => {
      const k = COLOURS.indexOf(c) * 5 + code[i] - 1;
      layers[c].src = svgUrl(art("punch", k));
      place(layers[c], D.punch[k].frame, shift[c]);
    });
    // a card a link carried has no printed picture in this page: the stack is read and ringed all the same
    const picture = card && art("cards", card.index - 1);
    layers.card.style.visibility = picture ? "visible" : "hidden";
    if (picture) {
      layers.card.src = svgUrl(picture);
      place(layers.card, card.frame, shift.card);
    }
    rings.replaceChildren();
    for (const n of open || []) {
      const cell = L.cells[n - 1];
      const [x, y] = R.toTable(cell[0], cell[1], shift.card);
      const ring = document.createElement("div");
      const d = (Math.max(L.hole.width, L.hole.height) + 1.6) * px; // round the hole, clear of its neighbours
      ring.className = "ring";
      ring.style.cssText = `position:absolute;width:${d}px;height:${d}px;left:${(x - VIEW[0]) * px - d / 2}px;` +
        `top:${(y - VIEW[1]) * px - d / 2}px`;
      rings.appendChild(ring);
    }
  }
  return { show, layers };
}

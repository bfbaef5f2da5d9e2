/* The cards' pictures drawn in the page, as art.svg writes them for print: the parts the build gives once
 * (web/card_art.py: glyph outlines, shared items, each card's own few) and what the layout says, drawn here (each
 * punch card's holes, each verification card's ✓ and ✗ cells), in the same order, in the card's millimetre frame.
 */
const KAPPA = 0.5522847498; // a quarter circle as one cubic (tmphys.lang.glyphs.KAPPA)

/** A coordinate as art.svg writes it: at most three places, no "-0". */
export function num(v) {
  const s = v.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" || s === "" ? "0" : s;
}

const corner = (p0, c, p1) => ["C", p0[0] + KAPPA * (c[0] - p0[0]), p0[1] + KAPPA * (c[1] - p0[1]),
  p1[0] + KAPPA * (c[0] - p1[0]), p1[1] + KAPPA * (c[1] - p1[1]), p1[0], p1[1]];

/** A rectangle (top-left x, y) with corners rounded to r, as path commands (art.draw.rounded_rect). */
export function roundedRect(x, y, w, h, r) {
  r = Math.max(0, Math.min(r, w / 2, h / 2));
  if (r === 0) return [["M", x, y], ["L", x + w, y], ["L", x + w, y + h], ["L", x, y + h], ["Z"]];
  return [["M", x + r, y], ["L", x + w - r, y], corner([x + w - r, y], [x + w, y], [x + w, y + r]),
    ["L", x + w, y + h - r], corner([x + w, y + h - r], [x + w, y + h], [x + w - r, y + h]),
    ["L", x + r, y + h], corner([x + r, y + h], [x, y + h], [x, y + h - r]),
    ["L", x, y + r], corner([x, y + r], [x, y], [x + r, y]), ["Z"]];
}

const pathData = (cmds) => cmds.map(([c, ...v]) => c + v.map(num).join(" ")).join("");
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

function shape(d, fill, stroke, width, evenodd, role) {
  return `<path d="${d}" fill="${esc(fill)}"` + (stroke ? ` stroke="${esc(stroke)}" stroke-width="${width}"` : "") +
    (evenodd ? ' fill-rule="evenodd"' : "") + (role ? ` class="${esc(role)}"` : "") + " />";
}

function glyphRun(fill, role, placed, used) {
  const uses = placed.map(([name, x, y, size]) => {
    used.add(name);
    return `<use xlink:href="#${name}" transform="matrix(${size} 0 0 ${num(-Number(size))} ${x} ${y})" />`;
  });
  return `<g class="${esc(role)}" fill="${esc(fill)}">${uses.join("")}</g>`;
}

/**
 * Draws the cards of one layout: `art` the build's parts (D.art), `machine` the layout's data (D.machine: cells,
 * each card's frame, each punch card's holes, each verification card's face). `svg(kind, index)` gives the SVG text
 * of punch card `index` (0..14: blue 1..5, yellow, purple) or of verification card `index`'s front (0-based); null
 * for a card the build gave no parts for (one a link carried).
 */
export function cardArt(art, machine) {
  const L = machine.layout, cells = L.cells;
  const cache = new Map();

  function holes(k) {
    const bits = machine.punch[k].holes, h = L.hole, out = [];
    for (let i = 0; i < bits.length; i++) {
      if (bits[i] !== "1") continue;
      out.push(...roundedRect(cells[i][0] - h.width / 2, cells[i][1] - h.height / 2, h.width, h.height, h.radius));
    }
    return pathData(out);
  }

  function marks(face, used) {
    const { size, kinds } = art.marks, w = L.mark.width, h = L.mark.height;
    const of = (kind) => cells.filter((c, i) => (face[i] === "1") === (kind === "pass"));
    const rects = kinds.map((m) => shape(pathData(of(m.kind).flatMap((c) => roundedRect(c[0] - w / 2, c[1] - h / 2, w, h, 0))),
      m.fill, "", "", false, `mark-${m.kind}`));
    const glyphs = kinds.map((m) => glyphRun(m.ink, `mark-glyph-${m.kind}`,
      of(m.kind).map((c) => [m.glyph, num(c[0] - size / 2), num(c[1] + size / 2), num(size)]), used));
    return rects.join("") + glyphs.join("");
  }

  function draw(indices, title, [fx, fy, fw, fh], extra) {
    const used = new Set(), body = [];
    indices.forEach((i, j) => {
      const item = art.items[i];
      if (item[0] === "g") body.push(glyphRun(item[1], item[2], item[3], used));
      else if (item[0] === "p") { // a punch card's body is followed by ["holes"]: its own holes join its path
        const next = art.items[indices[j + 1]];
        const d = next && next[0] === "holes" ? item[1] + extra.holes() : item[1];
        body.push(shape(d, item[2], item[3], item[4], item[5], item[6]));
      } else if (item[0] === "cells") body.push(extra.cells(used));
    });
    const defs = [...used].map((name) => `<path d="${art.glyphs[name]}" id="${name}" />`).join("");
    return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${num(fw)}mm" ` +
      `height="${num(fh)}mm" viewBox="${[fx, fy, fw, fh].map(num).join(" ")}"><title>${esc(title)}</title>` +
      `<defs>${defs}</defs><g id="art">${body.join("")}</g></svg>`;
  }

  function svg(kind, index) {
    const key = `${kind}:${index}`;
    if (!cache.has(key)) {
      if (kind === "punch") {
        cache.set(key, draw(art.punch[index], `punch-${index}`, machine.punch[index].frame, { holes: () => holes(index) }));
      } else {
        const card = machine.cards[index];
        const items = art.fronts[index];
        cache.set(key, items && card ? draw(items, `verification-${index + 1}-front`, card.frame,
          { cells: (used) => marks(card.face, used) }) : null);
      }
    }
    return cache.get(key);
  }
  return { svg };
}

// The history's plots, drawn as inline SVG by the page itself: no library, nothing from
// the network. Each plot is a <figure> whose SVG is an image with a one-sentence summary
// for screen readers, followed by a table of every number it draws (visually hidden
// until "Show the numbers" is pressed, always read by screen readers). Colour never
// stands alone: each player also has a marker shape and a dash pattern, and each score
// source a label in its segment or in the legend beside its colour.
"use strict";

window.Plots = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // Okabe & Ito's colour-blind-safe palette, darkest first (all readable on white).
  const COLORS = ["#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#B07800"];
  const DASHES = ["", "7 3", "2 3", "9 3 2 3", "4 4", "1 3"];
  const MARKERS = ["circle", "square", "triangle", "diamond", "cross", "down"];
  // Score sources: fill, and the text colour that reads on it (contrast 4.5:1 or more).
  const SOURCE_FILLS = {
    cards: ["#4d4d4d", "#fff"], bonuses: ["#0072B2", "#fff"], abilities: ["#56B4E9", "#000"],
    fleet: ["#009E73", "#000"], helium: ["#E69F00", "#000"], sovereign: ["#CC79A7", "#000"],
    influence: ["#D55E00", "#000"],
  };
  let serial = 0;

  function svg(tag, attrs, ...kids) {
    const el = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) el.setAttribute(key, value);
    }
    for (const kid of kids.flat()) {
      if (kid !== null && kid !== undefined) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  const html = window.Dom.h;

  // A player's marker at (x, y) as path data: a distinct shape for each of six seats.
  // One path carries all of a player's markers (six elements a plot, not a hundred).
  function markerPath(kind, x, y) {
    const r = 3.2;
    switch (kind) {
      case "square": return `M${x - r} ${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`;
      case "triangle": return `M${x} ${y - r - 0.6}L${x + r} ${y + r}L${x - r} ${y + r}Z`;
      case "down": return `M${x - r} ${y - r}L${x + r} ${y - r}L${x} ${y + r + 0.6}Z`;
      case "diamond": return `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`;
      case "cross": return `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`;
      default: return `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
    }
  }

  function markers(kind, points, color) {
    const d = points.map(([x, y]) => markerPath(kind, x, y)).join("");
    return kind === "cross" ? svg("path", { d, stroke: color, "stroke-width": 2, fill: "none" })
      : svg("path", { d, fill: color });
  }

  // A player's key for a legend: their line and marker, then their name.
  function key(index, name) {
    const i = index % COLORS.length;
    return html("li", {}, svg("svg", { width: 30, height: 12, viewBox: "0 0 30 12", "aria-hidden": "true", focusable: "false" },
      svg("line", { x1: 1, y1: 6, x2: 29, y2: 6, stroke: COLORS[i], "stroke-width": 2, "stroke-dasharray": DASHES[i] || null }),
      markers(MARKERS[i], [[15, 6]], COLORS[i])), name);
  }

  function legend(players) {
    return html("ul", { class: "plot-legend", "aria-hidden": "true" }, players.map((name, i) => key(i, name)));
  }

  function width(container) {
    return Math.max(260, Math.round(container.clientWidth || 320));
  }

  // The figure around a plot: caption, SVG, the numbers and the button that shows them.
  function figure(container, caption, summary, drawing, table) {
    const id = `plot-${++serial}`;
    // A region of its own: a wide table scrolls inside it (never the page), by keyboard too.
    const numbers = html("div", { class: "plot-numbers visually-hidden", id: `${id}-numbers`,
      role: "region", "aria-label": `${caption}: the numbers` }, table);
    const toggle = html("button", { class: "btn plot-toggle", type: "button", "aria-expanded": "false",
      "aria-controls": `${id}-numbers`, onclick: () => {
        const shown = numbers.classList.toggle("visually-hidden") === false;
        numbers.tabIndex = shown ? 0 : -1; // a tab stop only while it can be seen
        toggle.setAttribute("aria-expanded", String(shown));
        toggle.textContent = shown ? "Hide the numbers" : "Show the numbers";
      } }, "Show the numbers");
    drawing.setAttribute("role", "img");
    drawing.setAttribute("aria-label", summary);
    const fig = html("figure", { class: "plot" }, html("figcaption", { text: caption }), drawing, toggle, numbers);
    container.append(fig);
    return fig;
  }

  function numbersTable(caption, head, rows) {
    return html("table", { class: "numbers" }, html("caption", { text: caption }),
      html("thead", {}, html("tr", {}, head.map((text) => html("th", { scope: "col", text })))),
      html("tbody", {}, rows.map(([name, ...cells]) => html("tr", {}, html("th", { scope: "row", text: name }),
        cells.map((v) => html("td", { text: v }))))));
  }

  // Where a tick label goes: every point when they fit, else every k-th (always the last).
  function tickStep(count, room) {
    return Math.max(1, Math.ceil(count / Math.max(1, Math.floor(room / 24))));
  }

  const tickText = (label) => (label === "Start" ? "0" : label === "End" ? "end" : label);

  // One token over the rounds: a line per player, the end-game condition (7) dashed.
  // The page's own pending layout (the scorepad drawn just before) is settled first, so
  // a plot's time is its own: building its SVG and table, and laying them out.
  function start(container) {
    container.getBoundingClientRect();
    return performance.now();
  }

  function lines(container, spec) {
    const t0 = start(container);
    const { caption, labels, players, rows, threshold } = spec;
    const W = width(container);
    const H = 176;
    const m = { left: 26, right: 10, top: 10, bottom: 24 };
    const top = Math.max(spec.max || 10, ...rows.flat());
    const yMax = Math.ceil(top / 5) * 5;
    const n = labels.length;
    const x = (k) => m.left + (n > 1 ? (k * (W - m.left - m.right)) / (n - 1) : 0);
    const y = (v) => m.top + ((yMax - v) * (H - m.top - m.bottom)) / yMax;
    const grid = [];
    for (let v = 0; v <= yMax; v += 5) {
      grid.push(svg("line", { x1: m.left, x2: W - m.right, y1: y(v), y2: y(v), class: "grid" }),
        svg("text", { x: m.left - 5, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v));
    }
    if (threshold) {
      grid.push(svg("line", { x1: m.left, x2: W - m.right, y1: y(threshold), y2: y(threshold), class: "threshold" }));
    }
    const step = tickStep(n, W - m.left - m.right);
    // Every step-th label and the last one, unless a label would crowd the last.
    const shown = (k) => k === n - 1 || (k % step === 0 && n - 1 - k >= step / 2);
    const ticks = labels.map((label, k) => (shown(k)
      ? svg("text", { x: x(k), y: H - 8, "text-anchor": "middle", class: "tick" }, tickText(label)) : null));
    // Players level with each other would hide one another: each line sits a pixel or
    // so apart (at most ±4 px, a third of a token at this height).
    const dodge = (i) => (i - (players.length - 1) / 2) * 1.5;
    const series = rows.map((row, i) => {
      const c = i % COLORS.length;
      const points = row.map((v, k) => [x(k), y(v) + dodge(i)]);
      return svg("g", { class: "series" },
        svg("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: COLORS[c],
          "stroke-width": 2, "stroke-dasharray": DASHES[c] || null, "stroke-linejoin": "round" }),
        markers(MARKERS[c], points, COLORS[c]));
    });
    const drawing = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", preserveAspectRatio: "xMinYMin meet", class: "plot-svg" },
      grid, ticks, series);
    const last = rows.map((row, i) => `${players[i]} ${row[row.length - 1]}`).join(", ");
    const summary = `${caption}, ${labels.length - 1} steps from the deal to the end` +
      (threshold ? `; ${threshold} or more meets an end-game condition` : "") + `. At the end: ${last}.`;
    const table = numbersTable(caption, ["Player", ...labels.map((l) => (l === "Start" || l === "End" ? l : `Round ${l}`))],
      rows.map((row, i) => [players[i], ...row]));
    const fig = figure(container, caption, summary, drawing, table);
    fig.getBoundingClientRect(); // lay it out: the time below includes layout
    const ms = performance.now() - t0;
    fig.dataset.drawMs = ms.toFixed(2);
    return ms;
  }

  // Each player's final score as one bar, split by where the points came from. Points
  // taken off (a bonus clause's penalty, excess cards) are hatched at the bar's end: the
  // bar's solid part is then the score.
  function stacked(container, spec) {
    const t0 = start(container);
    const { caption, sources, players } = spec;
    const W = width(container);
    const m = { left: 4, right: 6 };
    const rowH = 44;
    const H = players.length * rowH + 4;
    const gained = (p) => p.parts.reduce((sum, v) => sum + Math.max(0, v), 0);
    const scale = (W - m.left - m.right) / Math.max(1, ...players.map(gained));
    const hatchId = `hatch-${++serial}`;
    const defs = svg("defs", {}, svg("pattern", { id: hatchId, width: 6, height: 6,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("rect", { width: 6, height: 6, fill: "#fff" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#000", "stroke-width": 3 })));
    const bars = players.map((p, i) => bar(p, sources, i * rowH + 18, m.left, scale, `url(#${hatchId})`));
    const drawing = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", preserveAspectRatio: "xMinYMin meet", class: "plot-svg" },
      defs, bars);
    const summary = `${caption}. ` + players.map((p) => `${p.name} ${p.total}: ` + [
      ...sources.map((s, k) => (p.parts[k] ? `${s.label} ${p.parts[k]}` : null)),
      p.excess ? `excess cards ${p.excess}` : null].filter(Boolean).join(", ")).join("; ") + ".";
    const table = numbersTable(caption, ["Player", ...sources.map((s) => s.label), "Excess cards", "Total"],
      players.map((p) => [p.name, ...p.parts, p.excess, p.total]));
    const fig = figure(container, caption, summary, drawing, table);
    fig.insertBefore(html("ul", { class: "plot-legend sources", "aria-hidden": "true" }, sources.map((s) => html("li", {},
      html("span", { class: "swatch", "data-source": s.key }), s.label))), drawing);
    fig.getBoundingClientRect();
    const ms = performance.now() - t0;
    fig.dataset.drawMs = ms.toFixed(2);
    return ms;
  }

  // One player's bar at height y0: a segment per source gained, then what was taken off.
  function bar(p, sources, y0, left, scale, hatch) {
    let at = left;
    const segments = p.parts.map((v, k) => {
      if (v <= 0) return null;
      const w = v * scale;
      const [fill, ink] = SOURCE_FILLS[sources[k].key];
      const seg = svg("g", {}, svg("rect", { x: at, y: y0, width: w, height: 20, fill, stroke: "#fff", "stroke-width": 1 },
        svg("title", {}, `${p.name}: ${sources[k].label} ${v}`)),
      w >= 22 ? svg("text", { x: at + w / 2, y: y0 + 14.5, "text-anchor": "middle", fill: ink, class: "seg" }, v) : null);
      at += w;
      return seg;
    });
    const off = [...sources.map((s, k) => [s.label.toLowerCase(), p.parts[k]]), ["excess cards", p.excess]]
      .filter(([, v]) => v < 0);
    const lost = off.reduce((sum, [, v]) => sum - v, 0);
    const hatched = lost > 0 ? svg("rect", { x: Math.max(left, at - lost * scale), y: y0,
      width: Math.min(at - left, lost * scale), height: 20, fill: hatch, stroke: "#000", class: "taken-off" },
    svg("title", {}, `${p.name}: ${off.map(([label, v]) => `${v} ${label}`).join(", ")}`)) : null;
    // The label stays on one line of a phone: a long name is cut (the table has it whole).
    const name = p.name.length > 18 ? `${p.name.slice(0, 17)}…` : p.name;
    const label = `${name} · ${p.total}` + (lost ? ` (−${lost} taken off)` : "");
    return svg("g", { class: "bar" }, svg("text", { x: left, y: y0 - 5, class: "bar-label" }, label), segments, hatched);
  }

  return { lines, stacked, legend, COLORS };
})();

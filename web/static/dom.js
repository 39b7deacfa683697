// DOM helpers the table page and the history share: elements built from a tag, its
// attributes and children (a string from the server always goes in as text, never as
// HTML), and the scorepad's table with a "why" row under each line.
"use strict";

window.Dom = (() => {
  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = value;
      else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? "" : value);
    }
    for (const kid of kids.flat()) {
      if (kid !== null && kid !== undefined && kid !== false) {
        el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
      }
    }
    return el;
  }
  const fill = (el, ...kids) => { el.replaceChildren(...kids.flat(Infinity).filter((k) => k)); };

  // The scorepad document (rows, players, totals) into ``table``.
  function scorepad(table, s) {
    const rows = s.rows.map((r) => {
      const why = h("tr", { class: "why", hidden: true }, h("td", { colspan: s.players.length + 1 },
        h("p", { text: r.help }), s.players.map((n, i) => (r.why[i].length
          ? h("p", {}, h("b", { text: `${n}: ` }), r.why[i].join("; ")) : null))));
      const toggle = h("button", { type: "button", "aria-expanded": "false", onclick: () => {
        why.hidden = !why.hidden;
        toggle.setAttribute("aria-expanded", String(!why.hidden));
      } }, r.label);
      return [h("tr", {}, h("th", { scope: "row" }, toggle), r.points.map((v) => h("td", { text: v }))), why];
    });
    fill(table,
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Row" }),
        s.players.map((n) => h("th", { scope: "col", text: n })))),
      h("tbody", {}, rows.flat(),
        h("tr", { class: "total" }, h("th", { scope: "row", text: "Total" }),
          s.totals.map((v) => h("td", { text: v })))));
  }

  return { h, fill, scorepad };
})();

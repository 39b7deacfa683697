// The games' history: the finished games the journal holds and each player's record
// (GET /api/games), and one game opened at #game-<id> (GET /api/games/<id>): its
// scorepad, BG Stats link, tokens by round, score split and log. Every string from the
// server goes into the page as text, never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const HOUSE = (h) => (h ? h[0].toUpperCase() + h.slice(1) : "–");
  const TRACKS = [["helium", "Helium", 7], ["influence", "Influence", 7], ["fleet", "Fleet", 7]];
  let shown = null; // the game on screen (its /api/games/<id> reply)

  const { h, fill } = window.Dom;

  function when(iso) {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso
      : date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function facts(g) {
    return [when(g.started), g.minutes ? `${g.minutes} min` : null,
      g.solo_level ? `solo against Au Toma, level ${g.solo_level}` : `${g.players.length} players`]
      .filter(Boolean).join(" · ");
  }

  const seatText = (p) => `${p.name}${p.house ? ` (${HOUSE(p.house)})` : ""} ${p.score ?? "?"}`;
  const wonText = (g) => (g.winners.length ? `${g.winners.length > 1 ? "Winners" : "Winner"}: ${g.winners.join(" and ")}`
    : "Not scored");

  function notice(text) {
    $("notice").textContent = text;
    $("notice").hidden = !text;
  }

  async function getJSON(path) {
    const reply = await fetch(path, { credentials: "same-origin" });
    const data = await reply.json().catch(() => null);
    if (!reply.ok) throw new Error((data && data.error) || `The companion refused (${reply.status}).`);
    return data;
  }

  // --- the list ---------------------------------------------------------------------------
  function renderList(data) {
    $("players-empty").hidden = data.games.length > 0;
    $("player-table").hidden = !data.players.length;
    fill($("player-table").tBodies[0], data.players.map((p) => h("tr", {},
      h("th", { scope: "row", text: p.name }), h("td", { text: p.games }), h("td", { text: p.wins }),
      h("td", { text: p.average ?? "–" }), h("td", { text: p.best ?? "–" }), h("td", { text: HOUSE(p.house) }))));
    $("house-table").hidden = !data.houses.length;
    fill($("house-table").tBodies[0], data.houses.map((x) => h("tr", {},
      h("th", { scope: "row", text: HOUSE(x.house) }), h("td", { text: x.games }), h("td", { text: x.wins }),
      h("td", { text: `${Math.round((100 * x.wins) / x.games)} %` }), h("td", { text: x.average ?? "–" }))));
    fill($("game-list"), data.games.map((g) => h("li", {}, h("a", { href: `#game-${g.id}`, class: "game-link" },
      h("span", { class: "game-when", text: `#${g.id} · ${facts(g)}` }),
      h("span", { class: "game-seats", text: g.players.map(seatText).join(" · ") }),
      h("span", { class: "game-won", text: wonText(g) })))));
    if (!data.journal) notice("This companion keeps no journal: there is no history to show.");
  }

  // --- one game ---------------------------------------------------------------------------
  function renderGame(data) {
    shown = data;
    const g = data.game;
    $("game-title").textContent = g ? `Game ${g.id}` : "Game";
    $("game-facts").textContent = g ? facts(g) : "";
    $("game-winners").textContent = g ? wonText(g) : "";
    $("game-message").textContent = data.message || "";
    const link = $("bgstats");
    link.hidden = !(g && g.bgstats);
    if (g && g.bgstats) link.href = g.bgstats;
    renderScorepad(data.available ? data.scorepad : null);
    $("tokens").hidden = !data.available;
    $("split").hidden = !data.available;
    if (data.available) {
      renderTokens(data.series);
      renderSplit(data.split);
    }
    fill($("game-log"), (data.log || []).map((e) => h("li", {}, h("span", { class: "log-title", text: e.title }), " ",
      h("span", { text: e.text }),
      e.lines.length > 1 ? h("details", {}, h("summary", { text: `${e.lines.length} moves` }),
        h("ul", {}, e.lines.map((line) => h("li", { text: line })))) : null)));
  }

  function renderScorepad(s) {
    const table = $("game-scorepad");
    if (!s || !s.available) { table.replaceChildren(); return; }
    window.Dom.scorepad(table, s);
  }

  function renderTokens(series) {
    fill($("token-legend"), window.Plots.legend(series.players));
    const box = $("token-plots");
    box.replaceChildren();
    for (const [track, name, threshold] of TRACKS) {
      window.Plots.lines(box, { caption: `${name} by round`, labels: series.labels, players: series.players,
        rows: series[track], threshold, max: 10 });
    }
  }

  function renderSplit(split) {
    const box = $("split-plot");
    box.replaceChildren();
    window.Plots.stacked(box, { caption: "Final score by source", sources: split.sources, players: split.players });
  }

  // --- which view ---------------------------------------------------------------------------
  async function show() {
    const m = /^#game-(\d+)$/.exec(location.hash);
    $("list-view").hidden = Boolean(m);
    $("game-view").hidden = !m;
    notice("");
    try {
      if (m) {
        renderGame(await getJSON(`/api/games/${m[1]}`));
        document.title = `Red Rising · game ${m[1]}`;
        $("game-title").focus();
      } else {
        renderList(await getJSON("/api/games")); // afresh: a game may have ended since
        document.title = "Red Rising · games";
      }
      document.body.dataset.ready = m ? `game-${m[1]}` : "list";
    } catch (err) {
      notice(err.message || "The companion did not answer; check the Wi-Fi.");
      document.body.dataset.ready = "error";
    }
  }

  // Draw the open game's plots again and say how long each took (ms): for the browser
  // tests and benchmarks/history_plots.py, which time the page's own drawing.
  function redraw() {
    if (!shown || !shown.available) return [];
    renderTokens(shown.series);
    renderSplit(shown.split);
    return [...document.querySelectorAll("figure.plot")].map((f) => Number(f.dataset.drawMs));
  }

  window.Games = { redraw };
  window.addEventListener("hashchange", show);
  show();
})();

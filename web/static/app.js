// The table page: renders each document the server pushes (Server-Sent Events) and
// sends the table's controls to the JSON API. No build step, no framework: every string
// from the server goes into the page as text, never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const LOCATION_NAMES = { jupiter: "Jupiter", mars: "Mars", luna: "Luna", institute: "The Institute" };
  const BONUS = { fleet: "+Fleet", helium: "+Helium", sovereign: "+Sovereign", influence: "+Influence" };

  let doc = null; // the document on screen
  let csrf = null; // set while this phone holds the table PIN
  let buttons = []; // the table's buttons, when the companion has them
  let catalogue = null; // the card list, fetched on first use
  let editing = null; // {location, cards: [{id, name, caste, face_down, index}]}
  let handDraft = null; // {player, cards: [id], seen: "camera reading it came from", edited}
  const tokenEdits = {}; // player index -> {helium, influence, fleet, hand}
  let toastTimer = 0;
  let noticeTimer = 0;

  // --- DOM helpers -----------------------------------------------------------------
  const { h, fill } = window.Dom;
  const casteLabel = (c) => [h("span", { class: `swatch sw-${c.caste}`, "aria-hidden": "true" }), c.caste_name];

  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }

  // --- the live feed -----------------------------------------------------------------
  function connect() {
    const source = new EventSource("/events");
    source.addEventListener("update", (e) => render(JSON.parse(e.data)));
    source.onopen = () => setLive(true);
    source.onerror = () => {
      setLive(false);
      // The browser retries by itself (sending Last-Event-ID) unless the server refused
      // the stream outright (too many pages open): then try again a little later.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 10000);
    };
  }

  function setLive(on) {
    const el = $("live");
    el.textContent = on ? "live" : "offline";
    el.className = `live ${on ? "on" : "off"}`;
  }

  function render(d) {
    if (doc && d.boot === doc.boot && d.seq < doc.seq) return; // an older reply arriving late
    const roll = d.last_roll;
    const rolled = Boolean(doc && roll && (!doc.last_roll || doc.last_roll.index !== roll.index));
    const fresh = !doc || d.kind === "new-game" || d.boot !== doc.boot;
    doc = d;
    renderHeader(d, rolled);
    renderNotice(d, fresh);
    renderUnsaved(d);
    renderOver(d);
    renderPlayers(d);
    renderAutoma(d);
    renderQuestion(d);
    renderDecision(d);
    renderLocations(d);
    renderLog(d);
    renderFinished(d);
    renderControls(d);
  }

  // --- read-only parts -----------------------------------------------------------------
  function renderHeader(d, rolled) {
    const t = d.turn;
    $("turn").textContent = t ? `Round ${t.round} · ${t.name}` : phaseText(d.phase);
    $("step").textContent = stepText(d);
    const roll = $("roll");
    roll.hidden = !d.last_roll;
    roll.textContent = d.last_roll ? d.last_roll.text : "";
    roll.dataset.face = d.last_roll ? d.last_roll.face : "";
    if (rolled) {
      roll.classList.add("roll-new");
      setTimeout(() => roll.classList.remove("roll-new"), 2500);
    }
    $("deck").textContent = `Deck ${d.deck_count}`;
  }

  // The one thing the table is waiting for, in the header of every screen.
  function stepText(d) {
    if (d.question) return `Camera: ${d.question.prompt}`;
    const turn = d.automa && d.automa.turn;
    if (turn && turn.waiting) return turn.waiting;
    if (d.pending) return d.pending.prompt;
    return d.phase === "over" && d.scorepad && d.scorepad.available ? winnersText(d.scorepad) : "";
  }

  function phaseText(phase) {
    return { setup: "No game yet", finale: "End-of-game abilities", over: "Game over" }[phase] || "";
  }

  function renderNotice(d, fresh) {
    const el = $("notice");
    if (fresh) { el.hidden = true; clearTimeout(noticeTimer); } // nothing from a game before
    if (!d.notice) return;
    el.textContent = d.notice;
    el.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { el.hidden = true; }, 10000);
  }

  // Stays up while the journal's disk refuses writes ("moves since 21:04 are not saved").
  function renderUnsaved(d) {
    const el = $("unsaved");
    el.textContent = d.unsaved || "";
    el.hidden = !d.unsaved;
  }

  function renderLocations(d) {
    fill($("locations"), d.locations.map((loc) => h("article", { class: "location", "data-location": loc.id },
      h("h3", {}, loc.name, h("span", { class: "bonus", text: BONUS[loc.bonus] })),
      h("p", { class: "depth", text: loc.depth === 1 ? "1 card" : `${loc.depth} cards` }),
      loc.top ? cardBox(loc.top) : h("p", { class: "empty", text: "No cards" }),
      loc.covered.length ? h("ul", { class: "covered", "aria-label": "Covered cards, oldest first" },
        loc.covered.map((c) => h("li", { class: c.caste ? `caste-${c.caste}` : "" },
          c.caste ? casteLabel(c) : null, c.caste ? " · " : null, c.name))) : null)));
  }

  function cardBox(c) {
    if (!c.id) return h("div", { class: "card top-card" }, h("p", { class: "card-name", text: c.name }));
    return h("div", { class: `card top-card caste-${c.caste}` },
      h("p", { class: "card-name", text: c.name }),
      h("p", { class: "card-meta" }, h("span", {}, casteLabel(c)),
        h("span", { class: "core", "aria-label": `core value ${c.core}`, text: c.core })),
      h("p", { class: "summary", text: c.summary }));
  }

  function renderPlayers(d) {
    fill($("players").tBodies[0], d.players.map((p) => h("tr", { class: p.current ? "current" : "" },
      h("th", { scope: "row" }, h("span", { class: "player-name", text: p.name }),
        h("span", { class: "player-meta" }, p.automa ? `level ${d.automa ? d.automa.level : "–"}`
          : p.house_name.replace("House ", ""),
          p.current ? [" ", h("span", { class: "badge", text: "playing" })] : null,
          p.sovereign ? [" ", h("span", { class: "badge", text: "Sovereign" })] : null)),
      token(p, "helium"), token(p, "influence"),
      h("td", { class: p.conditions.fleet ? "met" : "" }, String(p.fleet),
        h("small", { text: `${p.fleet_points} pts` })),
      h("td", { text: p.hand }))));
    const e = d.endgame;
    $("endgame-text").textContent = e.triggered && e.by && d.phase === "playing"
      ? `${e.text} (triggered by ${e.by})` : e.text;
  }

  // A token count; 7 or more meets that end-game condition (green with a tick).
  const token = (p, key) => h("td", { class: p.conditions[key] ? "met" : "" }, String(p[key]));

  function renderAutoma(d) {
    const a = d.automa;
    const turn = a && a.turn;
    $("automa-turn").hidden = !turn;
    if (!turn) return;
    $("automa-title").textContent = `${a.name} plays her card ${turn.card}`;
    fill($("automa-steps"), turn.steps.map((s) => h("li", { class: s.status },
      s.status === "now" ? h("span", { class: "visually-hidden", text: "Now: " }) : null,
      s.status === "done" ? h("span", { class: "visually-hidden", text: "Done: " }) : null, s.text)));
    $("automa-waiting").textContent = turn.waiting || "";
    $("automa-waiting").hidden = !turn.waiting;
    const confirm = herConfirm(d);
    fill($("automa-options"), confirm ? confirm.options.map((o) => optionButton(o, o.label)) : []);
    $("automa-facts").textContent = [`Level ${a.level ?? "–"}`,
      a.parity ? `her ${a.parity} cards score more` : null,
      a.deck !== null ? `${a.deck} cards left in her deck` : null].filter(Boolean).join(" · ");
  }

  // Her step waiting for the table: answered from her card, not a second panel.
  function herConfirm(d) {
    const p = d.pending;
    const a = d.automa;
    return p && a && a.turn && p.kind === "confirm" && p.player === a.player ? p : null;
  }

  function winnersText(s) {
    return `${s.winners.length > 1 ? "Winners" : "Winner"}: ${s.winners.join(" and ")}` +
      (s.by_sovereign ? " (the Sovereign breaks the tie)" : "");
  }

  function renderOver(d) {
    const s = d.scorepad;
    $("over").hidden = !s;
    if (!s) return;
    $("scorepad-message").textContent = s.available ? "" : s.message;
    renderPlay(d.play);
    const table = $("scorepad-table");
    if (!s.available) { table.replaceChildren(); $("winners").textContent = ""; return; }
    $("winners").textContent = winnersText(s);
    window.Dom.scorepad(table, s);
  }

  // The finished game as the journal kept it: log it in BG Stats, or open its plots.
  function renderPlay(play) {
    $("play-links").hidden = !play;
    if (!play) return;
    $("bgstats").href = play.bgstats;
    $("game-page").href = `/games#game-${play.id}`;
  }

  function renderLog(d) {
    fill($("log"), d.log.map((e) => h("li", {}, h("span", { class: "log-title", text: e.title }), " ",
      h("span", { text: e.text }),
      e.lines.length > 1 ? h("details", {}, h("summary", { text: `${e.lines.length} moves` }),
        h("ul", {}, e.lines.map((line) => h("li", { text: line })))) : null)));
  }

  function renderFinished(d) {
    const games = d.finished || [];
    $("finished").hidden = !games.length;
    fill($("finished-list"), games.map((g) => h("li", {}, h("a", { href: `/games#game-${g.id}` },
      g.players.map((p) => `${p.name} ${p.total}`).join(" · "),
      g.winners.length ? ` — ${g.winners.join(" and ")} won` : ""))));
  }

  // --- the tracker's question ------------------------------------------------------------
  function renderQuestion(d) {
    const q = d.question;
    $("question").hidden = !q;
    if (!q) return;
    $("question-prompt").textContent = q.prompt;
    if (q.kind === "location") { renderLocationQuestion(q); return; }
    fill($("question-options"), q.options.map((o) => h("button", { class: "btn", type: "button",
      disabled: !csrf, onclick: () => post("/api/question", { index: o.index }) }, o.label)));
  }

  // The camera cannot read a location: the table says what lies on top there. The count
  // is only needed when it is not the obvious one (one more card, or the one named).
  function renderLocationQuestion(q) {
    const count = h("input", { type: "number", min: "0", max: "40", inputmode: "numeric",
      placeholder: `cards (now ${q.count})`, "aria-label": "How many cards lie there (optional)" });
    const answer = (body) => {
      if (count.value !== "") body.count = Number(count.value);
      return post("/api/question", body);
    };
    const pickCard = async () => {
      const card = await pick(`${q.prompt}`, false);
      if (card) answer({ top: "card", card });
    };
    fill($("question-options"),
      h("button", { class: "btn", type: "button", disabled: !csrf, onclick: pickCard }, "A card…"),
      h("button", { class: "btn", type: "button", disabled: !csrf,
        onclick: () => answer({ top: "face_down" }) }, "A card face down"),
      h("button", { class: "btn", type: "button", disabled: !csrf,
        onclick: () => answer({ top: "empty" }) }, "Nothing"),
      count);
  }

  // --- the pending decision -------------------------------------------------------------
  function renderDecision(d) {
    const p = herConfirm(d) ? null : d.pending;
    $("decision").hidden = !p;
    if (!p) { renderHand(null, null); return; }
    $("decision-title").textContent = p.chance ? "Chance" : `${p.player_name} to decide`;
    $("decision-prompt").textContent = p.prompt;
    const revealed = $("revealed");
    revealed.hidden = !d.revealed.length;
    revealed.textContent = `Turned over: ${d.revealed.join(", ")}`;
    const groups = new Map();
    const items = [];
    for (const o of p.options) {
      if (!o.group) { items.push(optionButton(o, o.label)); continue; }
      if (!groups.has(o.group)) {
        const row = h("div", { class: "option-row" });
        groups.set(o.group, row);
        items.push(h("div", { class: "option-group" }, h("p", { text: `Deploy ${o.group} to` }), row));
      }
      groups.get(o.group).append(optionButton(o, o.short || o.label));
    }
    fill($("decision-options"), p.hand ? [] : items);
    renderHand(p.hand, d.hand_seen);
    const notes = [];
    if (p.hidden_options) notes.push(`${p.hidden_options} more option(s) name cards only ${p.player_name} can see: play them on the table.`);
    if (!csrf) notes.push("Unlock with the table PIN to answer here.");
    $("decision-note").textContent = notes.join(" ");
  }

  // --- scoring by camera: a hand laid face up, confirmed here ----------------------------
  function renderHand(hand, seen) {
    $("hand").hidden = !hand;
    if (!hand) { handDraft = null; return; }
    const reading = seen && seen.player === hand.player ? seen.cards.join(" ") : "";
    if (!handDraft || handDraft.player !== hand.player ||
        (!handDraft.edited && handDraft.seen !== reading)) {
      const cards = [...hand.known, ...(seen && seen.player === hand.player ? seen.cards : [])];
      handDraft = { player: hand.player, cards: [...new Set(cards)], seen: reading, edited: false };
    }
    const n = handDraft.cards.length;
    const unnamed = seen && seen.player === hand.player ? seen.unnamed : 0;
    $("hand-note").textContent = `${n} of ${hand.size} cards named` + (unnamed
      ? `; the camera sees ${unnamed} more it cannot name: lay them apart, or add them below.`
      : n < hand.size ? "; lay the cards apart, face up, or add them below." : ".");
    fill($("hand-cards"), handDraft.cards.map((id, i) => h("li", { class: "hand-card" },
      h("span", { text: cardName(id) }),
      h("button", { class: "btn", type: "button", disabled: !csrf, "aria-label": `Remove ${cardName(id)}`,
        onclick: () => { handDraft.cards.splice(i, 1); handDraft.edited = true; render(doc); } }, "×"))));
    $("hand-add").disabled = !csrf || n >= hand.size;
    $("hand-confirm").disabled = !csrf || n !== hand.size;
    if (!catalogue) ensureCatalogue().then(() => render(doc));
  }

  function cardName(id) {
    const found = catalogue && catalogue.find((c) => c.id === id);
    return found ? found.name : "…"; // never the id: the list is still loading
  }

  async function addToHand() {
    const card = await pick("Which card is in the hand?", false);
    if (!card || !handDraft || handDraft.cards.includes(card)) return;
    handDraft.cards.push(card);
    handDraft.edited = true;
    render(doc);
  }

  async function confirmHand() {
    if (!handDraft) return;
    await post("/api/answer", { index: 0, seq: doc.seq, cards: handDraft.cards });
  }

  function optionButton(o, text) {
    return h("button", { class: "btn", type: "button", disabled: !csrf, "aria-label": o.label,
      "data-index": o.index, onclick: () => answer(o) }, text);
  }

  async function answer(o) {
    const body = { index: o.index, seq: doc.seq };
    if (o.names_card) {
      const card = await pick(`${o.label}: which card?`, o.names_card === "optional");
      if (card === undefined) return;
      if (card !== null) body.card = card;
    }
    await post("/api/answer", body);
  }

  // --- controls --------------------------------------------------------------------------
  function renderControls(d) {
    $("lock").textContent = csrf ? "Lock" : "Unlock";
    $("undo").disabled = !csrf || !d.can_undo;
    $("corrections").hidden = !csrf || d.phase === "setup";
    $("new-game").hidden = !csrf;
    if (!csrf) return;
    fill($("buttons"), buttons.map((b) => h("button", { class: "btn", type: "button",
      onclick: () => post("/api/press", { button: b }) }, b.toUpperCase())));
    fill($("edit-locations"), d.locations.map((loc) => h("button", { class: "btn", type: "button",
      "aria-pressed": editing && editing.location === loc.id ? "true" : "false",
      onclick: () => startEditing(loc.id) }, loc.name)));
    renderStackEditor();
    renderTokenEditor(d);
    renderNewGame();
    const select = $("sovereign-select");
    fill(select, h("option", { value: "", text: "Nobody" }),
      d.players.map((p) => h("option", { value: p.index, text: p.name, selected: d.sovereign === p.index })));
    if (d.sovereign === null) select.value = "";
  }

  // --- a new game --------------------------------------------------------------------------
  const HOUSES = ["apollo", "ceres", "diana", "jupiter", "mars", "minerva"];
  const seats = [{ name: "", house: "mars" }, { name: "", house: "diana" }];

  function renderNewGame() {
    $("new-game").hidden = !csrf;
    if (!csrf) return;
    fill($("seat-list"), seats.map((seat, i) => h("li", { class: "seat" },
      h("input", { "aria-label": `Player ${i + 1} name`, placeholder: `Player ${i + 1}`,
        value: seat.name, maxlength: "24", oninput: (e) => { seat.name = e.target.value; } }),
      h("select", { "aria-label": `Player ${i + 1} house`,
        onchange: (e) => { seat.house = e.target.value; renderNewGame(); } },
        HOUSES.map((house) => h("option", { value: house, selected: seat.house === house },
          house[0].toUpperCase() + house.slice(1)))),
      seats.length > 1 ? h("button", { class: "btn", type: "button", "aria-label": "Remove",
        onclick: () => { seats.splice(i, 1); renderNewGame(); } }, "×") : null)));
    fill($("first-seat"), seats.map((seat, i) => h("option", { value: i },
      seat.name || `Player ${i + 1}`)), seats.length === 1 ? h("option", { value: 1 }, "Au Toma") : null);
    $("level-field").hidden = seats.length !== 1;
  }

  async function startGame() {
    const body = { players: seats.map((s, i) => ({ name: s.name.trim() || `Player ${i + 1}`,
      house: s.house })) };
    if (!seats.some((s) => s.house === "apollo")) body.first = Number($("first-seat").value);
    if (seats.length === 1) body.automa_level = Number($("automa-level").value);
    if (await post("/api/game", body)) toast("New game: the companion is following it.");
  }

  function startEditing(id) {
    const loc = doc.locations.find((l) => l.id === id);
    const stack = [...loc.covered, ...(loc.top ? [loc.top] : [])];
    editing = { location: id, cards: stack.map((c, index) => ({ ...c, index })) };
    renderControls(doc);
    ensureCatalogue();
  }

  function renderStackEditor() {
    $("stack-editor").hidden = !editing;
    if (!editing) return;
    const list = editing.cards;
    fill($("stack-list"), list.map((c, i) => h("li", {}, h("div", { class: "stack-item" },
      h("span", { class: "label" }, c.caste ? casteLabel(c) : null, c.caste ? " · " : null, c.name),
      !c.id && !c.face_down && c.index !== undefined
        ? h("button", { class: "btn", type: "button", onclick: () => identify(c) }, "Name it") : null,
      i > 0 ? h("button", { class: "btn", type: "button", "aria-label": `Move ${c.name} down the stack`,
        onclick: () => { [list[i - 1], list[i]] = [list[i], list[i - 1]]; renderStackEditor(); } }, "↑") : null,
      h("button", { class: "btn", type: "button", "aria-label": `Take ${c.name} off`,
        onclick: () => { list.splice(i, 1); renderStackEditor(); } }, "✕")))));
  }

  async function identify(c) {
    const card = await pick(`Card ${c.index + 1} on ${LOCATION_NAMES[editing.location]} is…`, false);
    if (!card) return;
    const reply = await post("/api/corrections/identify", { location: editing.location, index: c.index, card });
    if (reply) startEditing(editing.location);
  }

  async function saveStack() {
    const body = { location: editing.location, cards: editing.cards.map((c) => c.id),
      face_down: editing.cards.map((c) => Boolean(c.face_down)), removed_to: $("removed-to").value, seq: doc.seq };
    if (await post("/api/corrections/location", body)) startEditing(editing.location);
  }

  function renderTokenEditor(d) {
    fill($("token-editor"), d.players.map((p) => {
      const v = tokenEdits[p.index] || { helium: p.helium, influence: p.influence, fleet: p.fleet, hand: p.hand };
      const step = (key, label, max) => h("div", { class: "stepper" }, h("span", { text: label }),
        h("button", { class: "btn", type: "button", "aria-label": `${p.name}: less ${label}`,
          onclick: () => bump(p, v, key, -1, max) }, "−"),
        h("output", { text: v[key] }),
        h("button", { class: "btn", type: "button", "aria-label": `${p.name}: more ${label}`,
          onclick: () => bump(p, v, key, 1, max) }, "+"));
      return h("div", { class: "token-row", "data-player": p.index }, h("b", { text: p.name }),
        step("helium", "Helium", 999), step("influence", "Influence", 10), step("fleet", "Fleet", 10),
        step("hand", "Cards in hand", 112),
        h("button", { class: "btn primary", type: "button", disabled: !tokenEdits[p.index],
          onclick: () => saveTokens(p) }, `Save ${p.name}`));
    }));
  }

  function bump(p, v, key, delta, max) {
    const next = Math.min(max, Math.max(0, v[key] + delta));
    tokenEdits[p.index] = { ...v, [key]: next };
    renderTokenEditor(doc);
  }

  async function saveTokens(p) {
    const v = tokenEdits[p.index];
    const current = doc.players[p.index];
    let ok = true;
    if (v.helium !== current.helium || v.influence !== current.influence || v.fleet !== current.fleet) {
      ok = Boolean(await post("/api/corrections/tokens",
        { player: p.index, helium: v.helium, influence: v.influence, fleet: v.fleet }));
    }
    if (ok && v.hand !== current.hand) {
      ok = Boolean(await post("/api/corrections/hand", { player: p.index, count: v.hand }));
    }
    if (ok) { delete tokenEdits[p.index]; renderTokenEditor(doc); }
  }

  // --- the card picker ---------------------------------------------------------------------
  async function ensureCatalogue() {
    if (!catalogue) {
      const r = await fetch("/api/cards");
      catalogue = (await r.json()).cards;
    }
    return catalogue;
  }

  function matches(query) {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return catalogue.filter((c) => c.name.toLowerCase().includes(q) || c.caste.startsWith(q)).slice(0, 12);
  }

  function cardButton(c, onpick) {
    return h("button", { class: "btn", type: "button", "data-card": c.id, onclick: () => onpick(c) },
      h("b", { text: c.name }), " · ", casteLabel(c), ` · ${c.core}`);
  }

  function searchInto(input, results, onpick) {
    input.addEventListener("input", () => fill(results, matches(input.value).map((c) => cardButton(c, onpick))));
  }

  let pickResolve = null;
  async function pick(title, allowSkip) {
    await ensureCatalogue();
    $("picker-title").textContent = title;
    $("picker-skip").hidden = !allowSkip;
    $("picker-search").value = "";
    $("picker-results").replaceChildren();
    $("picker").showModal();
    return new Promise((resolve) => { pickResolve = resolve; });
  }

  function closePicker(value) {
    $("picker").close();
    if (pickResolve) pickResolve(value);
    pickResolve = null;
  }

  // --- talking to the API ------------------------------------------------------------------
  async function post(path, body) {
    let reply;
    try {
      reply = await fetch(path, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" }, body: JSON.stringify(body) });
    } catch (err) {
      toast("The companion did not answer; check the Wi-Fi.");
      return null;
    }
    const data = await reply.json().catch(() => null);
    if (reply.ok) {
      if (data && data.seq !== undefined) render(data);
      return data || {};
    }
    if (reply.status === 401) { csrf = null; if (doc) render(doc); }
    toast((data && data.error) || `The companion refused (${reply.status}).`);
    return null;
  }

  // "Save this game for a bug report": where the recorded game lies, and its download.
  async function saveForBugReport() {
    const out = $("bug-report-result");
    let reply;
    try {
      reply = await fetch("/api/bug-report", { credentials: "same-origin" });
    } catch (err) {
      toast("The companion did not answer; check the Wi-Fi.");
      return;
    }
    const data = await reply.json().catch(() => null);
    out.hidden = false;
    if (!reply.ok) {
      fill(out, (data && data.error) || `The companion refused (${reply.status}).`);
      return;
    }
    const mb = (data.bytes / 1e6).toFixed(1);
    fill(out, `Kept on the companion in ${data.folder} (${mb} MB, ${data.frames} pictures). `,
      h("a", { id: "bug-report-download", href: data.download, download: data.name },
        `Download ${data.name}`), " and attach it to your report.");
  }

  async function loadSession() {
    const r = await fetch("/api/session", { credentials: "same-origin" });
    const s = await r.json();
    csrf = s.csrf;
    buttons = s.buttons || [];
    if (doc) render(doc);
  }

  async function login(event) {
    event.preventDefault();
    const r = await fetch("/api/login", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: $("pin").value }) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { $("pin-error").textContent = data.error || "Refused"; return; }
    $("pin").value = "";
    $("pin-error").textContent = "";
    $("pin-dialog").close();
    await loadSession();
  }

  async function logout() {
    await post("/api/logout", {});
    csrf = null;
    editing = null;
    if (doc) render(doc);
  }

  function wire() {
    $("lock").addEventListener("click", () => (csrf ? logout() : $("pin-dialog").showModal()));
    $("logout").addEventListener("click", logout);
    $("bug-report").addEventListener("click", saveForBugReport);
    $("add-seat").addEventListener("click", () => {
      if (seats.length < 6) seats.push({ name: "", house: HOUSES.find((x) => !seats.some((s) => s.house === x)) });
      renderNewGame();
    });
    $("start-game").addEventListener("click", startGame);
    $("hand-add").addEventListener("click", addToHand);
    $("hand-confirm").addEventListener("click", confirmHand);
    $("pin-form").addEventListener("submit", login);
    $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
    $("undo").addEventListener("click", () => post("/api/undo", { seq: doc.seq }));
    $("save-stack").addEventListener("click", saveStack);
    $("add-unknown").addEventListener("click", () => {
      editing.cards.push({ id: null, name: "Unidentified card", face_down: false });
      renderStackEditor();
    });
    $("save-sovereign").addEventListener("click", () => {
      const value = $("sovereign-select").value;
      post("/api/corrections/sovereign", { player: value === "" ? null : Number(value) });
    });
    searchInto($("card-search"), $("card-results"), (c) => {
      if (editing.cards.some((e) => e.id === c.id)) { toast(`${c.name} is already there.`); return; }
      editing.cards.push({ ...c, face_down: false });
      $("card-search").value = "";
      $("card-results").replaceChildren();
      renderStackEditor();
    });
    searchInto($("picker-search"), $("picker-results"), (c) => closePicker(c.id));
    $("picker-cancel").addEventListener("click", () => closePicker(undefined));
    $("picker-skip").addEventListener("click", () => closePicker(null));
    $("picker").addEventListener("cancel", () => closePicker(undefined));
  }

  wire();
  loadSession();
  connect();
})();

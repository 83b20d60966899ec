// sponsio serve: the page. Plain JavaScript, no framework, no build step.
// The browser keeps the table as the lines a `sponsio table` session reads
// (localStorage, so a reload keeps it); the server checks every line and
// answers every question with the same session and engines.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token");
const STORE = "sponsio-serve-table";
const $ = (id) => document.getElementById(id);

const page = {
  table: { players: 4, seat: 0, narration: null, lines: [] },
  view: null,
  picker: { hand: [], talon: [] },
  into: "hand",
  sizes: { hand: 8, talon: 4 },
  deck: [],
  seed: 1,
  odds: null,
  sort: { key: null, down: true },
  asking: null,
  oddsAsking: null,
  showAll: {},
  last: null,
};
window.sponsio = page;   // tests and curious users read the last answer here

// ---- talking to the server ------------------------------------------------------------------------

function headers() {
  const h = { "Content-Type": "application/json" };
  if (TOKEN) h["X-Access-Token"] = TOKEN;
  return h;
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body) });
  let data;
  try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
  if (!r.ok || data.error) throw new Error(data.error || `the server answered ${r.status}`);
  return data;
}

// A streamed answer: one JSON object a line (progress, partial, answer, error, tick).
async function stream(path, body, onLine, signal) {
  const r = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body), signal });
  if (!r.ok) {
    let data = {};
    try { data = await r.json(); } catch (e) { /* not JSON */ }
    throw new Error(data.error || `the server answered ${r.status}`);
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 1);
      if (line.trim()) onLine(JSON.parse(line));
    }
  }
}

function say(id, text, bad) {
  const el = $(id);
  el.textContent = text || "";
  el.classList.toggle("bad", !!bad);
}

function save() {
  try { localStorage.setItem(STORE, JSON.stringify(page.table)); } catch (e) { /* private mode */ }
}

// ---- the deal: tapping cards ----------------------------------------------------------------------

function colourOf(card) { return card[0]; }

function buildPicker() {
  const box = $("picker");
  box.textContent = "";
  for (const card of page.deck) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `card c${colourOf(card)}`;
    b.textContent = card;
    b.dataset.card = card;
    b.addEventListener("click", () => tap(card));
    box.appendChild(b);
  }
  showPicker();
}

function locked() { return page.view && page.view.phase !== "deal"; }

function tap(card) {
  if (locked()) {
    say("deal-msg", "the round is under way: its deal is fixed (next round, or new table, to change it)", true);
    return;
  }
  const { hand, talon } = page.picker;
  const where = hand.includes(card) ? "hand" : talon.includes(card) ? "talon" : null;
  if (where) {
    page.picker[where] = page.picker[where].filter((c) => c !== card);
    say("deal-msg", "");
  } else {
    const list = page.picker[page.into];
    if (list.length >= page.sizes[page.into]) {
      say("deal-msg", `the ${page.into} has ${page.sizes[page.into]} cards: tap one of its cards to take it out first`, true);
      return;
    }
    list.push(card);
    say("deal-msg", "");
  }
  showPicker();
}

function showPicker() {
  const { hand, talon } = page.picker;
  for (const b of $("picker").children) {
    const c = b.dataset.card;
    b.classList.toggle("in-hand", hand.includes(c));
    b.classList.toggle("in-talon", talon.includes(c));
    b.setAttribute("aria-pressed", hand.includes(c) || talon.includes(c) ? "true" : "false");
    b.disabled = locked();
  }
  $("hand-count").textContent = `${hand.length}/${page.sizes.hand}`;
  $("talon-count").textContent = `${talon.length}/${page.sizes.talon}`;
  $("deal-btn").disabled = locked();
}

function setInto(where) {
  page.into = where;
  for (const [id, w] of [["to-hand", "hand"], ["to-talon", "talon"]]) {
    $(id).classList.toggle("on", w === where);
    $(id).setAttribute("aria-pressed", w === where ? "true" : "false");
  }
}

function sortCards(list) { return [...list].sort((a, b) => page.deck.indexOf(a) - page.deck.indexOf(b)); }

function options(select, values, chosen) {
  select.textContent = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = String(v);
    o.textContent = String(v);
    select.appendChild(o);
  }
  if (chosen !== undefined && chosen !== null) select.value = String(chosen);
}

function seatsOf(n) { return Array.from({ length: n }, (_, k) => k); }

// ---- the table ------------------------------------------------------------------------------------

async function record(lines, msgId) {
  try {
    const data = await post("/api/table", { table: page.table, add: lines });
    page.table = data.table;
    save();
    show(data.view);
    say(msgId || "round-msg", data.events.length ? data.events[data.events.length - 1] : "");
    return true;
  } catch (e) {
    say(msgId || "round-msg", e.message, true);
    return false;
  }
}

async function load(table) {
  const data = await post("/api/table", { table, add: [] });
  page.table = data.table;
  save();
  show(data.view);
}

function show(view) {
  page.view = view;
  page.deck = view.deck;
  page.sizes = { hand: view.hand_size, talon: view.talon_size };
  $("players").value = String(view.players);
  options($("seat"), seatsOf(view.players), view.seat);
  const fresh = !page.table.lines.length && !page.table.narration;
  $("players").disabled = !fresh;
  $("seat").disabled = !fresh;
  const dealer = $("dealer").value;
  options($("dealer"), seatsOf(view.players), view.dealer ?? (dealer !== "" && +dealer < view.players ? dealer : view.players - 1));
  $("round-no").value = view.round;
  if (view.phase !== "deal") page.picker = { hand: [...view.hand], talon: [...view.talon] };
  if ($("picker").children.length !== page.deck.length) buildPicker(); else showPicker();
  $("where").textContent = view.where;
  showHistory(view);
  showRecord(view);
  $("undo").disabled = !page.table.lines.length;
}

function showHistory(view) {
  const ol = $("history");
  ol.textContent = "";
  const add = (text, cls) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    ol.appendChild(li);
  };
  for (const h of view.history) add(`${h.end ? "end " : ""}seat ${h.seat}: ${h.text}`, h.seat === view.seat ? "mine" : "");
  view.tricks.forEach((t, k) => {
    const cards = t.cards.map((c) => `${c.card} (${c.seat})`).join(", ");
    add(`trick ${k + 1}: ${cards}${t.winner !== null ? ` → seat ${t.winner}` : ""}`, "trick");
  });
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.addEventListener("click", v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const kid of kids) e.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
  return e;
}

function select(id, values, label) {
  const s = el("select", { id });
  options(s, values);
  return label ? el("label", {}, label + " ", s) : s;
}

function showRecord(view) {
  const box = $("record");
  box.textContent = "";
  const mine = view.actor === view.seat;
  const who = view.actor === null ? "" : `seat ${view.actor}${mine ? " (you)" : ""}`;
  if (view.phase === "deal") {
    box.appendChild(el("p", { class: "note", text: "tap the deal, then start the round" }));
  } else if (view.phase === "betting") {
    const others = page.deck.filter((c) => !view.hand.includes(c) && !view.talon.includes(c));
    const reveal = mine ? view.hand_now : others;
    box.appendChild(el("p", { class: "lead", text: `${who} acts:` }));
    box.appendChild(el("div", { class: "row" },
      el("button", { type: "button", id: "act-pass", onclick: () => record([`${view.actor}: pass`]) }, "pass"),
      select("act-reveal", reveal, "or reveal"),
      select("act-kind", ["bet", "take", "swap"], "and"),
    ));
    const detail = el("div", { class: "row", id: "act-detail" });
    box.appendChild(detail);
    const fill = () => {
      detail.textContent = "";
      const kind = $("act-kind").value;
      if (kind === "bet") detail.appendChild(select("act-bet", view.bets));
      if (kind === "take") {
        detail.appendChild(select("act-token", view.tokens, "token"));
        detail.appendChild(select("act-pay", ["coin", ...reveal.map((c) => "reveal " + c)], "paid by"));
      }
      if (kind === "swap") {
        detail.appendChild(select("act-give", mine ? view.hand_now : others, "give"));
        detail.appendChild(select("act-take", view.talon, "for the talon's"));
      }
      detail.appendChild(el("button", { type: "button", id: "act-record", onclick: () => {
        const shown = `${view.actor}: reveal ${$("act-reveal").value}, `;
        if (kind === "bet") record([shown + `bet ${$("act-bet").value}`]);
        if (kind === "take") record([shown + `take ${$("act-token").value} (${$("act-pay").value})`]);
        if (kind === "swap") record([shown + `swap ${$("act-give").value} for ${$("act-take").value}`]);
      } }, "record"));
    };
    $("act-kind").addEventListener("change", fill);
    fill();
  } else if (view.phase === "token") {
    const p = view.pending;
    const bets = (view.held[String(p.seat)] || []).map((b, k) => `#${k + 1} ${b}`);
    box.appendChild(el("p", { class: "lead", text: `seat ${p.seat}${p.seat === view.seat ? " (you)" : ""} may use the ${p.token} token, or not (then record the first card):` }));
    const row = el("div", { class: "row" });
    box.appendChild(row);
    const use = (text) => record([`end ${p.seat}: ${text}`]);
    if (p.token === "double") {
      row.appendChild(select("end-bet", bets, "double"));
      row.appendChild(el("button", { type: "button", id: "end-record", onclick: () => use(`double ${$("end-bet").value.split(" ")[0]}`) }, "record"));
    } else if (p.token === "rebet") {
      row.appendChild(select("end-bet", bets, "change"));
      row.appendChild(select("end-new", view.bets, "to"));
      row.appendChild(el("button", { type: "button", id: "end-record", onclick: () => use(`rebet ${$("end-bet").value.split(" ")[0]} to ${$("end-new").value}`) }, "record"));
    } else {
      const give = p.seat === view.seat ? view.hand_now : page.deck.filter((c) => !view.hand.includes(c) && !view.talon.includes(c));
      row.appendChild(select("end-give", give, "swap"));
      row.appendChild(select("end-take", view.talon, "for"));
      row.appendChild(el("button", { type: "button", id: "end-record", onclick: () => use(`swap ${$("end-give").value} for ${$("end-take").value}`) }, "record"));
    }
    trickCards(box, view, true);
  } else if (view.phase === "tricks") {
    trickCards(box, view, false);
  } else {
    box.appendChild(el("p", { class: "note", text: "every card is played: next round starts the next deal" }));
  }
}

function trickCards(box, view, first) {
  const n = view.played.length;
  const trick = Math.floor(n / view.players) + 1;
  const lead = first ? "first card" : n % view.players === 0 ? `leads trick ${trick}` : `plays to trick ${trick}`;
  const actor = first ? null : view.actor;
  const who = actor === null ? "" : `seat ${actor}${actor === view.seat ? " (you)" : ""} `;
  box.appendChild(el("p", { class: "lead", text: `${who}${lead}: tap the card` }));
  const grid = el("div", { class: "cards small", id: "trick-cards" });
  for (const card of page.deck) {
    const mineNow = view.hand_now.includes(card);
    const b = el("button", { type: "button", class: `card c${colourOf(card)}${mineNow ? " in-hand" : ""}`, "data-card": card,
      onclick: () => record([`trick: ${card}`]) }, card);
    b.disabled = view.played.includes(card) || (actor === view.seat ? !mineNow : actor !== null && mineNow);
    grid.appendChild(b);
  }
  box.appendChild(grid);
}

// ---- odds for a hand, as they sharpen -------------------------------------------------------------

function cellNode(text) {
  const td = document.createElement("td");
  const cut = text.indexOf(" [");
  if (cut > 0) {
    td.appendChild(document.createTextNode(text.slice(0, cut)));
    td.appendChild(el("small", { text: text.slice(cut) }));
  } else {
    td.textContent = text;
  }
  return td;
}

const LABELS = { multiplier: "mult", fair_multiplier: "fair", vs_best: "vs best", p_bet: "p bet",
  win_vs_pass: "win vs pass", coins_now: "coins now" };
const SHORT = { "odds-table": 12, "answer-table": 8 };   // rows shown until "show all"

// A table of cells (``display``): sortable by the raw values (``raw``) where asked, the best rows
// marked, the first rows only until "show all" is tapped.
function showTable(tableEl, display, raw, marks, sortable) {
  tableEl.textContent = "";
  const more = $(`${tableEl.id}-more`);
  if (more) more.hidden = true;
  if (!display || !display.rows.length) return;
  const cols = display.columns;
  let order = display.rows.map((_, k) => k);
  if (sortable && page.sort.key !== null && raw) {
    const key = page.sort.key;
    const sign = page.sort.down ? -1 : 1;
    order.sort((a, b) => {
      const x = raw[a][key], y = raw[b][key];
      const nx = typeof x === "number" ? x : x === null ? Infinity : null;
      const ny = typeof y === "number" ? y : y === null ? Infinity : null;
      if (nx !== null && ny !== null) return sign * (nx - ny) || a - b;
      return sign * String(x).localeCompare(String(y)) || a - b;
    });
  }
  const short = SHORT[tableEl.id];
  if (more && short && order.length > short + 2) {
    const all = page.showAll[tableEl.id];
    more.hidden = false;
    more.textContent = all ? `show the first ${short}` : `show all ${order.length}`;
    more.onclick = () => { page.showAll[tableEl.id] = !all; showTable(tableEl, display, raw, marks, sortable); };
    if (!all) order = order.slice(0, short);
  }
  const head = el("tr");
  cols.forEach((c) => {
    const th = el("th", { scope: "col", class: `col-${c}` }, LABELS[c] || c);
    if (sortable) {
      th.classList.add("sort");
      th.dataset.key = c;
      if (page.sort.key === c) th.classList.add(page.sort.down ? "down" : "up");
      th.addEventListener("click", () => {
        page.sort = { key: c, down: page.sort.key === c ? !page.sort.down : c !== "bet" };
        showOdds();
      });
    }
    head.appendChild(th);
  });
  tableEl.appendChild(el("thead", {}, head));
  const body = el("tbody");
  for (const k of order) {
    const tr = el("tr");
    if (marks && marks.best.includes(k)) tr.className = "best";
    else if (marks && marks.positive.includes(k)) tr.className = "positive";
    display.rows[k].forEach((v, j) => {
      const td = cellNode(v);
      td.className = `col-${cols[j]}`;
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  tableEl.appendChild(body);
}

function showOdds() {
  const m = page.odds;
  if (!m) return;
  showTable($("odds-table"), m.display, m.answer.rows, { best: m.best, positive: m.positive }, true);
  $("odds-cmd").textContent = "same as: " + m.answer.meta.same_as;
}

function bar(id, item) {
  const box = $(id).parentElement;
  if (item === null) { box.hidden = true; return; }
  box.hidden = false;
  $(id).style.width = `${Math.min(100, (100 * item.done) / Math.max(1, item.total)).toFixed(1)}%`;
}

async function handOdds() {
  const { hand, talon } = page.picker;
  if (hand.length !== page.sizes.hand) {
    say("odds-state", `tap your ${page.sizes.hand} cards first (${hand.length} so far)`, true);
    return;
  }
  if (page.oddsAsking) page.oddsAsking.abort();
  const ctrl = new AbortController();
  page.oddsAsking = ctrl;
  const players = +$("players").value;
  const seat = +$("seat").value;
  const lead = (+$("dealer").value + 1) % players;
  const target = +$("target").value;
  const started = performance.now();
  say("odds-state", "simulating…");
  page.odds = null;
  $("odds-table").textContent = "";
  let first = null;
  try {
    await stream("/api/odds", { players, seat, lead, hand: sortCards(hand).join(" "),
      talon: talon.length ? sortCards(talon).join(" ") : null, seed: +$("seed").value, target_ci: target }, (item) => {
      if (item.kind === "partial" || item.kind === "answer") {
        bar("odds-bar", { done: item.within, total: item.display.rows.length });
        if (first === null) first = performance.now() - started;
        page.odds = item;
        showOdds();
        const done = item.kind === "answer";
        say("odds-state", `${done ? "done" : "sharpening"}: ${item.within} of ${item.display.rows.length} bets within the target 95 % CI width ${target}; ${item.rounds.toLocaleString()} rounds` +
          ` · first numbers after ${(first / 1000).toFixed(2)} s` + (done ? ` · all in ${((performance.now() - started) / 1000).toFixed(1)} s` : "") +
          " · green: EV positive even at the low end of P's interval");
        if (done) { bar("odds-bar", null); $("odds-state").dataset.done = "1"; }
      }
      if (item.kind === "error") { say("odds-state", item.error, true); bar("odds-bar", null); }
    }, ctrl.signal);
  } catch (e) {
    if (e.name !== "AbortError") say("odds-state", e.message, true);
    bar("odds-bar", null);
  }
}

// ---- questions at the table -----------------------------------------------------------------------

async function ask(kind) {
  if (page.asking) page.asking.abort();
  const ctrl = new AbortController();
  page.asking = ctrl;
  $("stop").disabled = false;
  const opts = { seed: +$("seed").value, play: $("play").value, infer: $("infer").checked };
  if ($("n").value) opts.n = +$("n").value;
  $("answer-title").textContent = kind === "advise" ? "thinking…" : "simulating…";
  $("answer-title").classList.remove("bad");
  $("answer-title").dataset.done = "";
  for (const id of ["answer-table", "reveal-table", "answer-notes"]) $(id).textContent = "";
  $("reveal-title").hidden = true;
  page.showAll["answer-table"] = false;
  $("answer-cmd").textContent = "";
  try {
    await stream("/api/ask", { table: page.table, kind, options: opts }, (item) => {
      if (item.kind === "progress") bar("ask-bar", item);
      if (item.kind === "error") {
        say("answer-title", item.error, true);
        $("answer-title").dataset.done = "error";
      }
      if (item.kind === "answer") {
        page.last = item;
        $("answer-title").textContent = item.title;
        for (const note of item.notes) $("answer-notes").appendChild(el("li", { text: note }));
        showTable($("answer-table"), item.display, null, null, false);
        $("reveal-title").hidden = !item.reveals;
        if (item.reveals) showTable($("reveal-table"), item.reveals, null, null, false);
        $("answer-cmd").textContent = "same as: " + item.answer.meta.same_as;
        $("answer-title").dataset.done = item.kind;
      }
    }, ctrl.signal);
  } catch (e) {
    say("answer-title", e.name === "AbortError" ? "stopped" : e.message, e.name !== "AbortError");
    $("answer-title").dataset.done = "error";
  } finally {
    bar("ask-bar", null);
    if (page.asking === ctrl) { page.asking = null; $("stop").disabled = true; }
  }
}

// ---- buttons --------------------------------------------------------------------------------------

function dealLines() {
  const v = page.view;
  const { hand, talon } = page.picker;
  if (hand.length !== page.sizes.hand) throw new Error(`the hand has ${hand.length} of its ${page.sizes.hand} cards`);
  if (talon.length !== page.sizes.talon) throw new Error(`the talon has ${talon.length} of its ${page.sizes.talon} cards`);
  const lines = [];
  if (+$("round-no").value !== v.round) lines.push(`round ${$("round-no").value}`);
  lines.push(`dealer ${$("dealer").value}`);
  for (const key of ["coins", "track"]) {
    const text = $(key).value.trim();
    if (text) lines.push(`${key} ${text}`);
  }
  lines.push(`hand ${sortCards(hand).join(" ")}`, `talon ${sortCards(talon).join(" ")}`);
  return lines;
}

async function newTable(players, seat) {
  page.picker = { hand: [], talon: [] };
  page.odds = null;
  await load({ players, seat, narration: null, lines: [] });
}

function wire() {
  $("to-hand").addEventListener("click", () => setInto("hand"));
  $("to-talon").addEventListener("click", () => setInto("talon"));
  $("clear").addEventListener("click", () => { if (!locked()) { page.picker = { hand: [], talon: [] }; showPicker(); } });
  $("players").addEventListener("change", () => newTable(+$("players").value, 0).catch((e) => say("deal-msg", e.message, true)));
  $("seat").addEventListener("change", () => newTable(+$("players").value, +$("seat").value).catch((e) => say("deal-msg", e.message, true)));
  $("paste").addEventListener("click", async () => {
    try {
      const data = await post("/api/cards", { players: +$("players").value, hand: $("paste-hand").value, talon: $("paste-talon").value });
      if (locked()) throw new Error("the round is under way: its deal is fixed");
      page.picker = { hand: data.hand, talon: data.talon };
      showPicker();
      say("deal-msg", `read ${data.hand.length} cards for the hand, ${data.talon.length} for the talon`);
    } catch (e) { say("deal-msg", e.message, true); }
  });
  $("deal-btn").addEventListener("click", async () => {
    let lines;
    try { lines = dealLines(); } catch (e) { say("deal-msg", e.message, true); return; }
    if (await record(lines, "deal-msg")) say("deal-msg", "the round is under way: record it under The round");
  });
  $("odds-btn").addEventListener("click", handOdds);
  $("line-btn").addEventListener("click", async () => {
    const line = $("line").value.trim();
    if (line && await record([line])) $("line").value = "";
  });
  $("line").addEventListener("keydown", (e) => { if (e.key === "Enter") $("line-btn").click(); });
  $("undo").addEventListener("click", async () => {
    if (!page.table.lines.length) return;
    const table = { ...page.table, lines: page.table.lines.slice(0, -1) };
    try { await load(table); say("round-msg", "undone"); } catch (e) { say("round-msg", e.message, true); }
  });
  $("next").addEventListener("click", async () => {
    if (await record(["new"])) { page.picker = { hand: [], talon: [] }; showPicker(); }
  });
  $("reset").addEventListener("click", () => newTable(+$("players").value, +$("seat").value).then(() => say("round-msg", "a new table")));
  $("export").addEventListener("click", async () => {
    try {
      const data = await post("/api/narration", { table: page.table });
      $("narration-box").hidden = false;
      $("narration").value = data.text;
      $("narration-cmd").textContent = "then: " + data.command;
      $("download").href = URL.createObjectURL(new Blob([data.text], { type: "text/plain" }));
      say("round-msg", "the round as a narration: sponsio advise --state reads it");
    } catch (e) { say("round-msg", e.message, true); }
  });
  $("import").addEventListener("click", () => {
    $("narration-box").hidden = false;
    $("narration").value = "";
    $("narration").placeholder = "paste a sponsio game --verbose excerpt (from its rules line or Round line up to now)";
    $("narration").focus();
  });
  $("use-narration").addEventListener("click", async () => {
    try {
      await load({ players: +$("players").value, seat: +$("seat").value, narration: $("narration").value, lines: [] });
      say("round-msg", "narration read");
    } catch (e) { say("round-msg", e.message, true); }
  });
  $("ask-advise").addEventListener("click", () => ask("advise"));
  $("ask-odds").addEventListener("click", () => ask("odds"));
  $("stop").addEventListener("click", () => { if (page.asking) page.asking.abort(); });
}

async function start() {
  wire();
  try {
    const status = await (await fetch("/api/status", { headers: headers() })).json();
    page.seed = status.seed;
    $("seed").value = status.seed;
    $("status").textContent = `ready · profile ${status.profile} · seed ${status.seed}`;
  } catch (e) {
    $("status").textContent = "the server does not answer";
  }
  let table = null;
  try { table = JSON.parse(localStorage.getItem(STORE)); } catch (e) { table = null; }
  try {
    await load(table && typeof table === "object" ? table : page.table);
  } catch (e) {
    say("round-msg", `the saved table could not be read again (${e.message}): a new table`, true);
    await load({ players: 4, seat: 0, narration: null, lines: [] });
  }
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", start);

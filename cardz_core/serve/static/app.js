// The cardz front end: draws the session document the server sends (docs/serve.md) and turns
// what the player does into API calls. Every text from a game file is set as textContent; the
// rules are the one HTML the page takes, written by the server's escaping Markdown renderer.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const DRAG_START = 4; // px a pointer moves before a press becomes a drag
const $ = (id) => document.getElementById(id);

let doc = null; // the session document last received
let timer = null; // the "play for me" loop

// -- talking to the server -----------------------------------------------------------------------
// `raw` sends and returns JSON text as it is: documents hold whole numbers up to 2^64 (seeds,
// the generator's state), which a JavaScript number would round
async function request(method, path, text) {
  const init = { method, headers: {} };
  if (text !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = text;
  }
  const response = await fetch(path, init);
  const answer = await response.text();
  if (!response.ok) {
    let message = response.statusText;
    try {
      message = JSON.parse(answer).error || message;
    } catch (_) { /* not JSON: keep the status text */ }
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return answer;
}

async function api(method, path, body) {
  return JSON.parse(await request(method, path, body === undefined ? undefined : JSON.stringify(body)));
}

// a request whose field `key` is the JSON document `content`, passed on unparsed
async function actWithDocument(action, key, content) {
  if (!doc) return null;
  try {
    const text = `{${JSON.stringify(key)}: ${content}}`;
    const value = JSON.parse(await request("POST", `/api/sessions/${doc.session}/${action}`, text));
    show(value);
    return value;
  } catch (error) {
    say(error.message);
    return null;
  }
}

function say(text, info) {
  const m = $("message");
  m.textContent = text || "";
  m.className = info ? "info" : "";
}

async function act(action, body) {
  if (!doc) return null;
  try {
    const value = await api("POST", `/api/sessions/${doc.session}/${action}`, body || {});
    show(value);
    return value;
  } catch (error) {
    say(error.message);
    if (error.status === 404) await start(currentGame(), { seed: 1 });
    return null;
  }
}

// `opening` is {seed: N} or {ms: N}; N may be the text typed, sent as written (seeds go up to
// 2^64 - 1, past what a JavaScript number holds exactly)
async function start(game, opening) {
  stopAutoplay();
  const [key, number] = Object.entries(opening)[0];
  const written = String(number).trim();
  if (!/^[0-9]{1,20}$/.test(written)) {
    say(`${key} must be a whole number from 0, not ${JSON.stringify(written)}`);
    return;
  }
  try {
    const text = `{"game": ${JSON.stringify(game)}, ${JSON.stringify(key)}: ${written}}`;
    const value = JSON.parse(await request("POST", "/api/sessions", text));
    if (doc) api("POST", `/api/sessions/${doc.session}/close`, {}).catch(() => {}); // replaced
    sessionStorage.setItem("cardz-session", value.session);
    show(value);
    say("");
  } catch (error) {
    say(error.message);
  }
}

function currentGame() {
  return $("game").value;
}

// -- drawing ---------------------------------------------------------------------------------
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, content, attrs) {
  const node = el("text", { "font-family": "sans-serif", ...attrs }, parent);
  node.textContent = content;
  return node;
}

function placement(p, layout) {
  const deg = (p.r * 180) / Math.PI;
  const turn = p.r ? ` rotate(${deg.toFixed(2)} ${layout.cardWidth / 2} ${layout.cardHeight / 2})` : "";
  return `translate(${p.x} ${p.y})${turn}`;
}

function drawCard(parent, card, depot, layout) {
  const w = layout.cardWidth, h = layout.cardHeight;
  const g = el("g", { class: "card", transform: placement(card, layout),
                      "data-depot": depot.name, "data-index": card.i, "data-label": card.label },
               parent);
  el("title", {}, g).textContent = card.label;
  if (card.back) {
    el("rect", { class: "edge", width: w, height: h, rx: 6, fill: card.back, stroke: "#1a1a1a" }, g);
    el("rect", { x: 5, y: 5, width: w - 10, height: h - 10, rx: 4, fill: "none", stroke: "#ffffff",
                 "stroke-opacity": 0.6 }, g);
    if (card.unknown) text(g, "?", { x: w / 2, y: h / 2 + 8, "text-anchor": "middle",
                                     "font-size": 24, fill: "#ffffff" });
  } else {
    el("rect", { class: "edge", width: w, height: h, rx: 6, fill: "#ffffff", stroke: "#1a1a1a" }, g);
    text(g, card.corner, { x: 5, y: 17, "font-size": 15, "font-weight": "bold", fill: card.ink });
    text(g, card.middle, { x: w / 2, y: h / 2 + 14, "text-anchor": "middle", "font-size": 40,
                           fill: card.ink });
    if (card.aid && $("aids").checked) {
      text(g, card.aid, { class: "aid", x: w - 5, y: h - 7, "text-anchor": "end", "font-size": 13,
                          fill: "#555555" });
    }
  }
  return g;
}

function drawBoard(layout) {
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `${layout.left} ${layout.top} ${layout.width} ${layout.height}`);
  svg.setAttribute("width", Math.ceil(layout.width));
  svg.setAttribute("height", Math.ceil(layout.height));
  for (const depot of layout.depots) {
    const outline = el("g", { class: "depot", transform: placement(depot, layout),
                              "data-depot": depot.name }, svg);
    el("title", {}, outline).textContent = depot.name;
    el("rect", { width: layout.cardWidth, height: layout.cardHeight, rx: 6, fill: "#ffffff",
                 "fill-opacity": 0.04, stroke: "#ffffff", "stroke-opacity": 0.5,
                 "stroke-dasharray": "4 3" }, outline);
    for (const card of depot.cards) drawCard(svg, card, depot, layout);
    if (depot.badge) {
      text(svg, String(depot.count), { class: "count", x: depot.x + layout.cardWidth / 2,
                                       y: depot.y + layout.cardHeight + 14,
                                       "text-anchor": "middle", "font-size": 12, fill: "#ffffff" });
    }
  }
}

function show(value) {
  doc = value;
  drawBoard(value.layout);
  const status = $("status");
  let line = `${value.name}: ${value.status}, ${value.moves} moves`;
  if (value.scoring) line += `, score ${value.score === null ? "not kept" : value.score}`;
  if (value.opening.seed !== undefined) {
    line += ` (seed ${value.opening.seed})`;
    // a seed past 2^53 comes back rounded: the box keeps what was typed
    if (Number.isSafeInteger(value.opening.seed)) $("seed").value = value.opening.seed;
  } else if (value.opening.ms !== undefined) {
    line += ` (Microsoft deal ${value.opening.ms})`;
    $("ms").value = value.opening.ms;
  }
  status.textContent = line;
  status.className = value.status;
  $("undo").disabled = !value.canUndo;
  $("redo").disabled = !value.canRedo;
  $("hint-text").textContent = "";
  $("rules-title").textContent = `Rules of ${value.name}`;
  $("rules").innerHTML = value.description; // escaped by the server's Markdown renderer
  $("aids-switch").hidden = value.layout.aids.length === 0;
  if ($("game").value !== value.game.id) $("game").value = value.game.id;
  showPlanners(value.planners);
  showLegal(value.legal);
  showReplay(value.replay);
  if (value.status !== "playing" && value.replay === null) {
    stopAutoplay();
    say(`The game is ${value.status}. Undo, restart or deal again.`, true);
  }
}

function showPlanners(names) {
  const select = $("planner");
  const kept = select.value;
  if ([...select.options].map((o) => o.value).join() !== names.join()) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
    if (names.includes(kept)) select.value = kept;
  }
  $("hint").disabled = $("autoplay").disabled = names.length === 0;
}

function showLegal(moves) {
  $("legal-count").textContent = moves.length;
  $("legal-list").replaceChildren(...moves.map((m) => new Option(m.text)));
  $("legal").replaceChildren(...moves.map((m) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.text;
    button.addEventListener("click", () => act("move", { move: m.text }));
    li.appendChild(button);
    return li;
  }));
}

// Replay steps are relative to the last step asked for, not the last one shown, and are sent one
// after another: quick clicks must neither fall back to a stale step nor land out of order.
let replayAim = null;
let replayQueue = Promise.resolve();
function replayGo(target) {
  if (!doc || doc.replay === null) return;
  const from = replayAim === null ? doc.replay.at : replayAim;
  const at = Math.max(0, Math.min(doc.replay.total, target(from, doc.replay.total)));
  if (at === from) return;
  replayAim = at;
  replayQueue = replayQueue.then(async () => {
    await act("goto", { at });
    if (replayAim === at) replayAim = null;
  });
}

function showReplay(replay) {
  $("replay-controls").hidden = replay === null;
  if (replay === null) return;
  $("replay-at").textContent = `step ${replay.at} of ${replay.total}`;
  $("replay-step").textContent = replay.at > 0 ? `${replay.at}. ${replay.steps[replay.at - 1]}` : "the opening";
  $("replay-back").disabled = $("replay-first").disabled = replay.at === 0;
  $("replay-forward").disabled = $("replay-last").disabled = replay.at === replay.total;
}

// -- hints and "play for me" -----------------------------------------------------------------
function plannerBody() {
  const body = { planner: $("planner").value };
  const nodes = $("nodes").value.trim();
  if (nodes) body.nodes = Number(nodes);
  return body;
}

function markHint(move) {
  const svg = $("board");
  const source = move.tap !== undefined ? move.tap : move.from;
  for (const g of svg.querySelectorAll(".card")) {
    const here = g.dataset.depot === source;
    if (here && (move.tap !== undefined || Number(g.dataset.index) >= move.index)) {
      g.classList.add("hint-from");
    }
  }
  const target = move.to !== undefined ? move.to : move.tap;
  for (const g of svg.querySelectorAll(".depot")) {
    if (g.dataset.depot === target) g.classList.add("hint-to");
  }
}

async function hint() {
  if (!doc) return;
  $("hint-text").textContent = "thinking\u2026";
  try {
    const value = await api("POST", `/api/sessions/${doc.session}/hint`, plannerBody());
    show(value);
    $("hint-text").textContent = value.hint ? `hint: ${value.hint.text}` : "hint: no move worth making";
    if (value.hint) markHint(value.hint);
  } catch (error) {
    $("hint-text").textContent = "";
    say(error.message);
  }
}

function stopAutoplay() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  $("autoplay").textContent = "Play for me";
}

async function autoplayStep() {
  const value = await act("step", plannerBody());
  if (value === null || value.status !== "playing" || timer === null) {
    stopAutoplay();
    return;
  }
  timer = setTimeout(autoplayStep, 1500 - Number($("speed").value));
}

function toggleAutoplay() {
  if (timer !== null) {
    stopAutoplay();
    return;
  }
  $("autoplay").textContent = "Pause";
  say("");
  timer = setTimeout(autoplayStep, 0);
}

// -- playing with the pointer ----------------------------------------------------------------
function svgPoint(event) {
  const svg = $("board");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// The depot a drop at p lands on: the one whose outline or cards hold p, nearest its top card.
function depotAt(p) {
  let best = null, bestDistance = Infinity;
  const w = doc.layout.cardWidth, h = doc.layout.cardHeight;
  for (const depot of doc.layout.depots) {
    for (const spot of [depot, ...depot.cards]) {
      const cx = spot.x + w / 2, cy = spot.y + h / 2;
      const dx = Math.abs(p.x - cx), dy = Math.abs(p.y - cy);
      if (dx <= w / 2 && dy <= h / 2) {
        const distance = dx * dx + dy * dy;
        if (distance < bestDistance) {
          best = depot;
          bestDistance = distance;
        }
      }
    }
  }
  return best;
}

let press = null;

function onPointerDown(event) {
  if (!doc || doc.replay !== null || event.button !== 0) return;
  const target = event.target.closest(".card, .depot");
  if (!target) return;
  const index = target.classList.contains("card") ? Number(target.dataset.index) : -1;
  const depot = target.dataset.depot;
  const cards = [...$("board").querySelectorAll(".card")].filter(
    (g) => g.dataset.depot === depot && index >= 0 && Number(g.dataset.index) >= index);
  press = { depot, index, start: svgPoint(event), cards, dragging: false, id: event.pointerId };
  $("board").setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  if (!press || press.index < 0) return;
  const p = svgPoint(event);
  const dx = p.x - press.start.x, dy = p.y - press.start.y;
  if (!press.dragging && Math.hypot(dx, dy) < DRAG_START) return;
  press.dragging = true;
  for (const g of press.cards) {
    if (g.dataset.base === undefined) {
      g.dataset.base = g.getAttribute("transform");
      g.classList.add("dragging");
      $("board").appendChild(g); // on top of everything while it moves
    }
    g.setAttribute("transform", `translate(${dx} ${dy}) ${g.dataset.base}`);
  }
  for (const g of $("board").querySelectorAll(".depot.drop")) g.classList.remove("drop");
  const over = depotAt(p);
  if (over && over.name !== press.depot) {
    for (const g of $("board").querySelectorAll(".depot")) {
      if (g.dataset.depot === over.name) g.classList.add("drop");
    }
  }
}

async function onPointerUp(event) {
  if (!press) return;
  const done = press;
  press = null;
  if (!done.dragging) {
    say("");
    await act("click", { depot: done.depot, index: done.index });
    return;
  }
  const over = depotAt(svgPoint(event));
  if (!over || over.name === done.depot) {
    drawBoard(doc.layout);
    return;
  }
  const move = { from: done.depot, index: done.index, to: over.name };
  const calls = doc.legal.filter((m) => m.from === move.from && m.index === move.index &&
                                        m.to === move.to && m.declare !== undefined);
  if (calls.length > 0) {
    const suit = window.prompt(`Call a suit: ${calls.map((m) => m.declare).join(", ")}`, calls[0].declare);
    if (suit === null) {
      drawBoard(doc.layout);
      return;
    }
    move.declare = suit.trim();
  }
  say("");
  if ((await act("move", { move })) === null) drawBoard(doc.layout);
}

// -- replay, save and load -------------------------------------------------------------------
async function readChosenFile(input) {
  const file = input.files[0];
  input.value = "";
  return file ? await file.text() : null;
}

function parseJson(content) {
  try {
    return JSON.parse(content);
  } catch (error) {
    say(`not JSON: ${error.message}`);
    return undefined;
  }
}

async function startReplay(content) {
  const trimmed = content.trim();
  if (!trimmed) {
    say("paste a log or cardz solve's output first");
    return;
  }
  stopAutoplay();
  const value = trimmed.startsWith("{") ? parseJson(trimmed) : null;
  if (value === undefined) return;
  if (value !== null && value.format === "cardz-log/1") await actWithDocument("replay", "log", trimmed);
  else await act("replay", { solution: trimmed });
}

function download(name, text) {
  const blob = new Blob([text], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function save(what) {
  if (!doc) return;
  try {
    const text = await request("GET", `/api/sessions/${doc.session}/${what}`);
    const stem = doc.game.id.replace(/[^A-Za-z0-9_-]/g, "_");
    download(`${stem}-${what}.json`, text);
  } catch (error) {
    say(error.message);
  }
}

async function load(content) {
  const value = parseJson(content);
  if (value === undefined) return;
  stopAutoplay();
  await actWithDocument("new", value && value.format === "cardz-log/1" ? "log" : "board", content);
}

// -- keyboard --------------------------------------------------------------------------------
function onKey(event) {
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
  if (typing || event.ctrlKey || event.metaKey || event.altKey || !doc) return;
  const replaying = doc.replay !== null;
  const keys = {
    u: () => act("undo"), r: () => act("redo"), h: () => hint(),
    "/": () => $("move-input").focus(),
    ArrowLeft: () => replaying && replayGo((at) => at - 1),
    ArrowRight: () => replaying && replayGo((at) => at + 1),
    Home: () => replaying && replayGo(() => 0),
    End: () => replaying && replayGo((_, total) => total),
  };
  const run = keys[event.key];
  if (run) {
    event.preventDefault();
    run();
  }
}

// -- start -----------------------------------------------------------------------------------
async function init() {
  const listing = await api("GET", "/api/games");
  const select = $("game");
  const groups = { bundled: document.createElement("optgroup"), file: document.createElement("optgroup") };
  groups.bundled.label = "Bundled games";
  groups.file.label = "Given files";
  for (const game of listing.games) groups[game.source].appendChild(new Option(game.name, game.id));
  select.appendChild(groups.bundled);
  if (groups.file.children.length) select.prepend(groups.file);
  $("reports-panel").hidden = listing.reports.length === 0;
  $("reports").replaceChildren(...listing.reports.map((r) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/reports/${encodeURIComponent(r.id)}`;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = r.name;
    li.appendChild(link);
    return li;
  }));

  select.addEventListener("change", () => start(currentGame(), { seed: $("seed").value || "1" }));
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const opening = { seed: $("seed").value };
    if ($("winnable").checked) opening.winnable = true;
    start(currentGame(), opening);
  });
  $("ms-form").addEventListener("submit", (e) => {
    e.preventDefault();
    start(currentGame(), { ms: $("ms").value });
  });
  $("restart").addEventListener("click", () => { stopAutoplay(); act("restart"); });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("hint").addEventListener("click", hint);
  $("autoplay").addEventListener("click", toggleAutoplay);
  $("move-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const typed = $("move-input").value.trim();
    if (!typed) return;
    say("");
    if ((await act("move", { move: typed })) !== null) $("move-input").value = "";
  });
  $("replay-start").addEventListener("click", async () => {
    const fromFile = await readChosenFile($("replay-file"));
    await startReplay(fromFile !== null ? fromFile : $("replay-text").value);
  });
  $("replay-first").addEventListener("click", () => replayGo(() => 0));
  $("replay-back").addEventListener("click", () => replayGo((at) => at - 1));
  $("replay-forward").addEventListener("click", () => replayGo((at) => at + 1));
  $("replay-last").addEventListener("click", () => replayGo((_, total) => total));
  $("replay-resume").addEventListener("click", () => act("resume"));
  $("replay-leave").addEventListener("click", () => act("leave"));
  $("save-log").addEventListener("click", () => save("log"));
  $("save-board").addEventListener("click", () => save("board"));
  $("load-file").addEventListener("change", async () => {
    const content = await readChosenFile($("load-file"));
    if (content !== null) await load(content);
  });
  $("aids").addEventListener("change", () => doc && drawBoard(doc.layout));
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", () => { press = null; if (doc) drawBoard(doc.layout); });
  document.addEventListener("keydown", onKey);

  // a tab keeps its session across reloads; a new tab starts its own
  const kept = sessionStorage.getItem("cardz-session");
  if (kept) {
    try {
      show(await api("GET", `/api/sessions/${kept}`));
      return;
    } catch (error) {
      sessionStorage.removeItem("cardz-session");
    }
  }
  const wanted = new URLSearchParams(location.hash.slice(1));
  const game = wanted.get("game") || (listing.games.find((g) => g.id === "klondike") || listing.games[0]).id;
  const opening = wanted.has("ms") ? { ms: wanted.get("ms") } : { seed: wanted.get("seed") || "1" };
  select.value = game;
  await start(game, opening);
}

document.addEventListener("DOMContentLoaded", () => {
  init().catch((error) => say(error.message));
});

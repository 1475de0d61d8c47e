// The page: a game's history of positions, moves by clicking the board or the move list,
// live analysis over an event stream, play against the engine, positions in and out.
"use strict";
const BOARDS = {azul: AzulBoard, pavilion: PavilionBoard, azure: AzureBoard};
const $ = (id) => document.getElementById(id);

const ui = {
  history: [],          // nodes {move, text, rng, doc}; history[index] is on the board
  index: 0,
  selection: null,      // the fields picked so far (Azul: a source and a colour)
  tab: null,            // this page's analysis stream id
  analysisOn: false,    // analyse every position shown until stopped
  analysing: null,      // the query id of the running analysis
  best: null,           // the best move of the latest analysis answer
  answer: null,         // the latest analysis answer (docs/analyze.md)
  columns: null,        // boards a row in the last drawing (one on a narrow screen)
  busy: false,
  preview: false,       // a position along the analysis's line is on the board (why.js)
};

// ---- the API ---------------------------------------------------------------------------

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: toJson(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// A number field's value as the player typed it (typedNumber), sent in a request's JSON as
// those characters: a large seed stays its digits where JavaScript's number would send
// 1e+23, so the server's error quotes what was typed.
class TypedNumber {
  constructor(text) { this.text = text; }
}
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

// The number in the field ``input``; an empty one (or one the browser cannot read) is
// refused here, by the request's ``name`` for it.
function typedNumber(input, name) {
  const text = input.value.trim();
  if (text === "" || !Number.isFinite(Number(text))) throw new Error(`${name} must be a number`);
  // A form JSON does not write (007, .5) goes as its number.
  return JSON_NUMBER.test(text) ? new TypedNumber(text) : Number(text);
}

// JSON.stringify's text, but a TypedNumber is written as typed.
function toJson(value) {
  if (value instanceof TypedNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => toJson(item) ?? "null").join(",")}]`;
  if (value !== null && typeof value === "object" && typeof value.toJSON !== "function") {
    const fields = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== "function");
    return `{${fields.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function showError(message) {
  const box = $("error");
  box.textContent = message ? `error: ${message}` : "";
  box.hidden = !message;
}

async function guarded(action) {
  try {
    showError(null);
    await action();
  } catch (err) {
    showError(err.message);
  }
}

// The player's next action clears the error line of the one before (its own refusal shows
// after this): a tap on a control, the board or a row, a choice or a box ticked.
const ACTIONS = "button, [data-pick], [data-edit], #history li, tbody tr, .review-point";
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest(ACTIONS)) showError(null);
}, true);
document.addEventListener("change", (event) => {
  if (event.target.matches("select, input[type=checkbox]")) showError(null);
}, true);

// ---- the history -------------------------------------------------------------------------

function current() { return ui.history[ui.index]; }

// Resolved once the first position is on the board (a first start compiles the rules
// before it comes): the controls marked data-needs-position are disabled until then, and
// Start clicked before it starts the analysis with it.
let firstPositionShown;
const firstPosition = new Promise((resolve) => { firstPositionShown = resolve; });
firstPosition.then(() => {
  for (const control of document.querySelectorAll("[data-needs-position]")) control.disabled = false;
});

async function nodeDoc(node) {
  if (!node.doc) node.doc = await api("/api/position", {position: node.text, rng: node.rng});
  return node.doc;
}

function startHistory(doc) {
  ui.history = [{move: null, text: doc.text, rng: doc.rng, doc}];
  ui.index = 0;
  return show();
}

async function play(move) {
  const trying = reviewPracticeMove(move);   // review.js: a try of "Practise your mistakes", not played
  if (trying) return trying;
  const node = current();
  const doc = await api("/api/play", {position: node.text, move, rng: node.rng, deal: $("deal").checked});
  const label = doc.dealt ? `${move} (chance dealt)` : move;
  ui.history.splice(ui.index + 1);
  ui.history.push({move: label, text: doc.text, rng: doc.rng, doc});
  ui.index = ui.history.length - 1;
  await show();
}

async function jump(index) {
  if (index < 0 || index >= ui.history.length) return;
  ui.index = index;
  await show();
}

// ---- drawing -------------------------------------------------------------------------------

async function show() {
  const doc = await nodeDoc(current());
  ui.selection = null;
  ui.best = null;
  $("status").textContent = doc.status;
  $("view-as").hidden = !doc.views;     // only a complete position of hidden information has them
  drawBoard();
  drawMoves(doc);
  drawHistory();
  drawSeats(doc);
  $("hint").textContent = "";
  $("choices").replaceChildren();
  $("analysis").tBodies[0].replaceChildren();
  whyPositionShown();                   // why.js: a stepped line belonged to the old position
  reviewPositionShown();                // review.js: the graph marks the position on the board
  shareControlsShown();                 // share.js: a game of hidden information shares a view
  firstPositionShown();
  if (ui.analysisOn) startAnalysis().catch((err) => showError(err.message));
  maybeEngineMove();
}

function drawBoard() {
  const doc = current().doc;
  const svg = $("board");
  svg.replaceChildren();
  const viewer = $("viewer").value;
  const shown = viewer && doc.views
    ? Object.assign({}, doc, {json: doc.views[viewer], viewer: Number(viewer)}) : doc;
  ui.columns = boardLayout(svg).columns;
  BOARDS[doc.game].draw(svg, shown);
  zoom.showWhole(true);                 // zoom.js: a new drawing shows the whole board
  markTargets();
}

function drawMoves(doc) {
  const list = $("moves");
  list.replaceChildren();
  for (const move of doc.moves) {
    const button = document.createElement("button");
    button.textContent = move.probability != null
      ? `${move.text} (${(100 * move.probability).toFixed(1)}%)` : move.text;
    button.dataset.move = move.text;
    button.addEventListener("click", () => guarded(() => play(move.text)));
    list.appendChild(button);
  }
  $("move-count").textContent = `${doc.moves.length}`;
}

function drawHistory() {
  const list = $("history");
  list.replaceChildren();
  ui.history.forEach((node, i) => {
    const item = document.createElement("li");
    item.textContent = i === 0 ? "start" : node.move;
    if (i === ui.index) item.className = "current";
    item.addEventListener("click", () => guarded(() => jump(i)));
    list.appendChild(item);
  });
  const currentItem = list.children[ui.index];
  if (currentItem) scrollWithin(list, currentItem);
  $("undo").disabled = ui.index === 0;
  $("redo").disabled = ui.index === ui.history.length - 1;
}

// Scrolls ``box`` (a list of its own height) just enough to show ``item``, and nothing
// else: scrollIntoView would also scroll the page, taking the board away on a phone.
function scrollWithin(box, item) {
  const outer = box.getBoundingClientRect(), inner = item.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
}

// Elements of the board whose pick fields are all in ``move``.
function elementsOf(move) {
  return [...$("board").querySelectorAll("[data-pick]")].filter((node) => {
    const pick = JSON.parse(node.dataset.pick);
    return Object.entries(pick).every(([key, value]) => move[key] === value);
  });
}

function markTargets() {
  const svg = $("board");
  for (const cls of ["selected", "target", "best"]) {
    svg.querySelectorAll(`.${cls}`).forEach((node) => node.classList.remove(cls));
  }
  if (ui.selection) {
    for (const move of candidates(ui.selection)) elementsOf(move).forEach((node) => node.classList.add("target"));
    elementsOf(ui.selection).forEach((node) => node.classList.add("selected"));
  }
  svg.querySelectorAll(".best-arrow").forEach((node) => node.remove());
  if (ui.best && !ui.preview) {         // not on a line's position shown by why.js
    const move = current().doc.moves.find((m) => m.text === ui.best);
    if (move) {
      const nodes = elementsOf(move);
      nodes.forEach((node) => node.classList.add("best"));
      drawArrow(svg, nodes);
    }
  }
}

// The best move as an arrow from its source to its destination (when it has both:
// Azul's and Summer Pavilion's drafts to a line; a placement or a cell is outlined only).
function drawArrow(svg, nodes) {
  const picks = [...new Set(nodes.map((node) => node.dataset.pick))];
  if (picks.length < 2) return;
  const centre = (pick) => {
    const box = nodes.find((node) => node.dataset.pick === pick).getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [x1, y1] = centre(picks[0]), [x2, y2] = centre(picks[picks.length - 1]);
  if (!svg.querySelector("#arrowhead")) {
    const marker = el("marker", {id: "arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"}, el("defs", {}, svg));
    el("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#cc00cc"}, marker);
  }
  el("line", {x1, y1, x2, y2, class: "best-arrow", stroke: "#cc00cc", "stroke-width": 5,
    "stroke-opacity": 0.7, "marker-end": "url(#arrowhead)", "pointer-events": "none"}, svg);
}

// ---- moves by clicking ---------------------------------------------------------------------

function candidates(pick) {
  const board = BOARDS[current().doc.game];
  const picks = board.alternatives ? board.alternatives(pick, current().doc) : [pick];
  for (const fields of picks) {
    const found = current().doc.moves.filter(
      (move) => Object.entries(fields).every(([key, value]) => move[key] === value));
    if (found.length) return found;
  }
  return [];
}

async function pickOnBoard(fields) {
  let pick = ui.selection && !("source" in fields) ? Object.assign({}, ui.selection, fields) : fields;
  let found = candidates(pick);
  if (!found.length && pick !== fields) { pick = fields; found = candidates(fields); }
  $("choices").replaceChildren();
  if (!found.length) {
    ui.selection = null;
    $("hint").textContent = "no legal move starts there";
    markTargets();
    return;
  }
  if (found.length === 1) { await play(found[0].text); return; }
  ui.selection = pick;
  $("hint").textContent = `${found.length} moves: pick where, or one of these`;
  for (const move of found) {
    const button = document.createElement("button");
    button.textContent = move.text;
    button.addEventListener("click", () => guarded(() => play(move.text)));
    $("choices").appendChild(button);
  }
  markTargets();
}

$("board").addEventListener("click", (event) => {
  const node = event.target.closest("[data-pick]");
  if (!node || ui.busy || ui.preview) return;
  guarded(() => pickOnBoard(JSON.parse(node.dataset.pick)));
});

// ---- analysis ---------------------------------------------------------------------------

function openStream() {
  const stream = new EventSource("/api/analysis/stream");
  stream.addEventListener("tab", (event) => { ui.tab = JSON.parse(event.data).tab; });
  stream.addEventListener("analysis", (event) => showAnalysis(JSON.parse(event.data)));
  stream.addEventListener("review", (event) => reviewAnswered(JSON.parse(event.data)));   // review.js
  stream.onerror = () => { ui.tab = null; };
  // A closed tab stops its search: the server also sees the stream end, but a browser
  // may keep the connection of a closed page open a while.
  window.addEventListener("pagehide", () => {
    // A keepalive fetch outlives the page, and sends the JSON content type the server wants.
    if (ui.tab) {
      fetch("/api/analysis/stop", {method: "POST", keepalive: true, headers: {"Content-Type": "application/json"},
        body: JSON.stringify({tab: ui.tab})}).catch(() => {});
    }
    stream.close();
  });
}

const STREAM_WAIT_MS = 10000;
let analysisTicket = 0;     // each start or stop takes the next: a start waiting meanwhile gives up

// The page's analysis stream id, waited for a while: the stream opens as the page loads.
async function analysisTab() {
  for (let waited = 0; !ui.tab && waited < STREAM_WAIT_MS; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ui.tab) throw new Error("the analysis stream is not open (reload the page)");
  return ui.tab;
}

// The analysis off and its controls idle (a refused start: the error line says why).
function analysisIdle() {
  ui.analysisOn = false;
  ui.analysing = null;
  $("analyse").textContent = "Start";
  $("analysis-state").textContent = "";
}

async function startAnalysis() {
  const ticket = ++analysisTicket;
  try {
    await searchPosition(ticket);
  } catch (err) {
    if (ticket === analysisTicket) analysisIdle();
    throw err;
  }
}

async function searchPosition(ticket) {
  const doc = current().doc;
  ui.analysisOn = true;
  $("analyse").textContent = "Stop";
  ui.analysing = null;
  // A first start compiles the game's search (start.js): the query waits for it.
  if (!warmup.searchEnded(doc.game)) {
    $("analysis-state").textContent = "waiting for the search to compile…";
    await warmup.searchReady(doc.game);
  }
  await analysisTab();
  if (ticket !== analysisTicket) return;
  const seconds = typedNumber($("analysis-seconds"), "seconds");
  if (doc.is_over || doc.is_chance) {
    $("analysis-state").textContent = doc.is_over ? "game over" : "chance acts: nothing to choose";
    await api("/api/analysis/stop", {tab: ui.tab});
    return;
  }
  $("analysis-state").textContent = "searching…";
  // A game of hidden information seen by one player: the search knows what that player knows (information-set MCTS).
  const viewer = $("viewer").value;
  const position = viewer && doc.views ? doc.views[viewer] : doc.text;
  const algo = $("analysis-algo").value;
  const started = (await api("/api/analysis/start", {tab: ui.tab, position, seconds, algo})).id;
  if (ticket === analysisTicket) ui.analysing = started;
}

async function stopAnalysis() {
  analysisTicket++;
  ui.analysisOn = false;
  ui.analysing = null;
  $("analyse").textContent = "Start";
  $("analysis-state").textContent = "stopped";
  if (ui.tab) await api("/api/analysis/stop", {tab: ui.tab});
}

function shortLine(pv) {
  return pv.slice(0, 5).join(", ") + (pv.length > 5 ? ", …" : "");
}

function showAnalysis(answer) {
  if (!ui.analysing || answer.id !== ui.analysing) return;
  if (answer.error) {
    showError(answer.error);
    analysisIdle();
    return;
  }
  ui.answer = answer;
  const rows = $("analysis").tBodies[0];
  rows.replaceChildren();
  answer.moves.slice(0, 10).forEach((move, i) => {
    const row = rows.insertRow();
    if (i === 0) row.className = "best";
    // A proven value is marked "=": exact to the end of the round or game (docs/search.md).
    const exact = move.exact ? "=" : "";
    const winRate = move.exact && move.exact.win_rate != null ? move.exact.win_rate : move.win_rate;
    const margin = move.exact ? move.exact.margin : move.margin;
    const cells = [move.move, winRate == null ? "" : exact + (100 * winRate).toFixed(1),
      margin == null ? "" : exact + margin.toFixed(1), move.visits, shortLine(move.pv || [])];
    for (const value of cells) row.insertCell().textContent = value;
    row.addEventListener("click", () => guarded(() => play(move.move)));
  });
  whyAnalysisShown(answer, rows);       // why.js: each move's breakdown, the line to step
  ui.best = answer.moves.length ? answer.moves[0].move : null;
  markTargets();
  const done = !answer.isDuringSearch;
  const proven = answer.proven ? ", proven" : "";
  $("analysis-state").textContent = `${answer.root.visits} ${answer.algo === "solve" ? "nodes" : "visits"}, `
    + `${answer.root.seconds.toFixed(1)} s${proven}${done ? " (done)" : ""}`;
  if (done) ui.analysing = null;
}

$("analyse").addEventListener("click", () => guarded(async () => {
  if (ui.analysisOn) return stopAnalysis();
  if (current() && current().doc) return startAnalysis();
  // Before the first position has arrived: show() starts the analysis with it.
  ui.analysisOn = true;
  $("analyse").textContent = "Stop";
  $("analysis-state").textContent = "waiting for the first position…";
}));

// ---- the engine at chosen seats ------------------------------------------------------------

function drawSeats(doc) {
  const seats = $("seats");
  if (seats.children.length === doc.players) return;
  seats.replaceChildren();
  for (let p = 1; p <= doc.players; p++) {
    const box = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.dataset.seat = p;
    input.addEventListener("change", () => maybeEngineMove());
    box.append(input, ` player ${p} `);
    seats.appendChild(box);
  }
}

function engineSeats() {
  return [...$("seats").querySelectorAll("input:checked")].map((box) => Number(box.dataset.seat));
}

async function maybeEngineMove() {
  const doc = current().doc;
  if (ui.busy || doc.is_over || reviewPractising() || !engineSeats().includes(doc.to_move)) return;
  if (!ui.tab) { setTimeout(maybeEngineMove, 200); return; }
  ui.busy = true;
  const atIndex = ui.index;
  $("hint").textContent = `the engine thinks for player ${doc.to_move}…`;
  let chosen = null;
  try {
    const seconds = typedNumber($("engine-seconds"), "seconds");
    chosen = await api("/api/engine-move", {tab: ui.tab, position: doc.text, seconds});
  } catch (err) {
    // Refused: the seat goes back to its player, who sees why once.
    showError(err.message);
    const seat = $("seats").querySelector(`input[data-seat="${doc.to_move}"]`);
    if (seat) seat.checked = false;
    if (ui.index === atIndex) $("hint").textContent = "";
  } finally {
    ui.busy = false;
  }
  // Played unless the board moved meanwhile (an undo) or the seat was handed back to its
  // player; the next seat's turn follows from it.
  if (chosen && ui.index === atIndex && engineSeats().includes(doc.to_move)) {
    await guarded(() => play(chosen.move));
  }
}

// ---- in and out ----------------------------------------------------------------------------

// The header's options: the chosen game's, each set to ``values[name]`` where given, else to
// its default.
let gameOptions = {};           // /api/games: each game's options

function fillOptions(values) {
  const options = $("options");
  options.replaceChildren();
  for (const [name, spec] of Object.entries(gameOptions[$("game").value] || {})) {
    const value = values && values[name] !== undefined ? values[name] : spec.default;
    const box = document.createElement("label");
    box.append(`${name} `);
    let input;
    if (spec.type === "choice") {
      input = document.createElement("select");
      for (const choice of spec.choices) input.add(new Option(choice, choice, false, choice === value));
    } else {
      input = document.createElement("input");
      input.type = spec.type === "bool" ? "checkbox" : spec.type === "int" ? "number" : "text";
      if (spec.type === "bool") input.checked = value;
      else if (value != null) input.value = value;
    }
    input.dataset.option = name;
    input.dataset.kind = spec.type;
    input.title = spec.help;
    box.appendChild(input);
    options.appendChild(box);
  }
}

async function loadOptions() {
  gameOptions = await api("/api/games");
  $("game").addEventListener("change", () => fillOptions());
  fillOptions();
}

// The options a position was dealt with, as far as it shows them: an option named in its
// JSON, Azul's wall (its variant). Azure's realm is left to the seed, as a new game deals it.
const OPTIONS_SHOWN = {azul: {variant: (json) => json.wall}, azure: {layout: () => null}};

function positionOptions(doc) {
  const values = {};
  for (const name of Object.keys(gameOptions[doc.game] || {})) {
    const read = (OPTIONS_SHOWN[doc.game] || {})[name];
    const value = read ? read(doc.json) : doc.json[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

// The header follows the game on the board (a link, a pasted position, the editor, a run):
// its game and options are that game's, so "New game" starts another like it.
function followHeader(doc) {
  if (!gameOptions[doc.game]) return;
  $("game").value = doc.game;
  fillOptions(positionOptions(doc));
}

function chosenOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.dataset.kind === "bool") options[input.dataset.option] = input.checked;
    else if (input.dataset.kind === "int") options[input.dataset.option] = typedNumber(input, input.dataset.option);
    else if (input.value !== "") options[input.dataset.option] = input.value;
  }
  return options;
}

$("new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  guarded(async () => {
    const doc = await api("/api/new", {game: $("game").value, seed: typedNumber($("seed"), "seed"), options: chosenOptions()});
    $("seats").replaceChildren();
    await startHistory(doc);
  });
});

$("load").addEventListener("click", () => guarded(async () => {
  // Text or JSON alike: the server reads both and names what is wrong.
  const doc = await api("/api/position", {position: $("position-text").value.trim()});
  followHeader(doc);
  await startHistory(doc);
}));

$("copy").addEventListener("click", () => guarded(async () => {
  const text = current().doc.text;
  $("position-text").value = text;
  if (navigator.clipboard) await navigator.clipboard.writeText(text).catch(() => {});
}));

$("undo").addEventListener("click", () => guarded(() => jump(ui.index - 1)));
$("redo").addEventListener("click", () => guarded(() => jump(ui.index + 1)));
window.addEventListener("resize", () => {
  if (current() && current().doc && boardLayout($("board")).columns !== ui.columns) drawBoard();
});

$("viewer").addEventListener("change", () => {
  if (!current() || !current().doc) return;
  drawBoard();
  if (ui.analysisOn) guarded(startAnalysis);
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  if (whyKey(event)) return;            // why.js: ← → step the line while it is shown
  if (event.key === "ArrowLeft") guarded(() => jump(ui.index - 1));
  if (event.key === "ArrowRight") guarded(() => jump(ui.index + 1));
});

$("open-run").addEventListener("click", () => guarded(async () => {
  const run = await api("/api/run", {folder: $("run-folder").value});
  const select = $("run-games");
  select.replaceChildren(new Option(`${run.count} games of ${run.game}: pick one`, ""));
  for (const game of run.games) {
    select.add(new Option(`game ${game.index}: ${game.agents.join(" v ")}, scores ${game.scores.join("-")}`, game.index));
  }
  select.hidden = false;
}));

$("run-games").addEventListener("change", () => guarded(async () => {
  if ($("run-games").value === "") return;
  const game = await api("/api/run/game", {folder: $("run-folder").value, index: Number($("run-games").value)});
  ui.history = [{move: null, text: game.start.text, rng: game.start.rng},
    ...game.plies.map((ply) => ({move: ply.move, text: ply.text, rng: ply.rng}))];
  ui.index = 0;
  $("seats").replaceChildren();
  await show();
  followHeader(current().doc);
}));

guarded(async () => {
  openStream();
  await loadOptions();
  // A share link in the address (share.js) opens its game; else a new Azul game.
  const link = await openSharedLink();
  if (!link.restored) await startHistory(await api("/api/new", {game: "azul", seed: typedNumber($("seed"), "seed"), options: {}}));
  if (link.error) throw new Error(link.error);
});

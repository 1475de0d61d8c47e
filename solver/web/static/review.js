// Game review: the server searches every position of the game on the board (review.py,
// the analysis engine's analyzeTurns); this draws one player's win chance over the game
// (move numbers along it, where each round starts), marks the moves by what they lost
// against the best (each mark its own shape and colour), shows each player's marks and
// accuracy (the server's figures), lists every move judged, and jumps to a position when
// its point (or row) is clicked. A review is saved to a file and loaded back (the server
// checks it), and "Practise your mistakes" turns a player's marked positions into
// exercises, each try judged by a search of the server. Uses app.js's ui, api, jump, show,
// markTargets, stopAnalysis and followHeader.
"use strict";
const REVIEW_GRAPH = {width: 400, height: 164, left: 30, right: 8, top: 14, bottom: 32};
const REVIEW_TICKS = 8;                   // move numbers along the graph, at most
const REVIEW_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
// Each mark's shape on the graph and symbol in the lists; style.css gives their colours.
const REVIEW_MARKS = {
  inaccuracy: {shape: "circle", symbol: "?!", plural: "inaccuracies"},
  mistake: {shape: "square", symbol: "?", plural: "mistakes"},
  blunder: {shape: "triangle", symbol: "??", plural: "blunders"},
};
const REVIEW_FILE = {format: "tessera-review", version: 1};  // docs/review.schema.json
const REVIEW_DEALT = " (chance dealt)";   // app.js's label of a move after which chance was dealt
const REVIEW_TAB_WAIT_MS = 10_000;        // for the page's stream to open, at most

const reviewState = {
  id: null,             // the running or last review's id (the server's; "file" for a loaded one)
  running: false,
  nodes: [],            // the history reviewed (app.js's nodes)
  players: 2,
  game: null,
  visits: null,         // the review's budget, which a try of Practise searches with
  seed: null,
  total: 0,             // positions searched
  done: 0,
  finished: false,
  points: new Map(),    // history index -> {player, chances, margins, answer} or {error}
  judged: new Map(),    // history index -> the move played there, judged (review.py's judge)
  rounds: [],           // {index, round}: where each round after the first starts
  summary: [],          // each player's moves, marks and accuracy (review.py's summary)
  early: [],            // events that came before the server's answer named the review
  practice: null,       // Practise your mistakes: the exercises and how they went
};

function reviewMoveText(label) {
  return label.endsWith(REVIEW_DEALT) ? label.slice(0, -REVIEW_DEALT.length) : label;
}

function reviewSetRunning(running, message) {
  reviewState.running = running;
  $("review-start").textContent = running ? "Stop" : "Review the game";
  if (message) $("review-state").textContent = message;
  reviewControls();
}

// The page's stream id: it opens as the page starts, but a click can come first.
async function reviewTab() {
  for (let waited = 0; !ui.tab && waited < REVIEW_TAB_WAIT_MS; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ui.tab) throw new Error("the analysis stream is not open (reload the page)");
  return ui.tab;
}

// A review's state from scratch: the game ``nodes``, nothing searched yet.
function reviewReset(nodes, fields) {
  reviewPracticeEnd();
  Object.assign(reviewState, {id: null, nodes, total: 0, done: 0, finished: false, points: new Map(),
    judged: new Map(), rounds: [], summary: [], early: []}, fields);
}

async function reviewStart() {
  const nodes = ui.history.slice();
  const history = nodes.map((node, i) => ({text: node.text, move: i ? reviewMoveText(node.move) : null}));
  reviewReset(nodes, {players: current().doc.players, game: current().doc.game,
    visits: Number($("review-visits").value), seed: Number($("review-seed").value)});
  reviewFillPlayers();
  reviewSetRunning(true, "starting…");       // the button is Stop from here on
  $("review-progress").hidden = false;
  $("review-progress").value = 0;
  reviewDrawAll();
  let started;
  try {
    await reviewTab();
    if (ui.analysisOn) await stopAnalysis();    // the review is the page's one search
    if (!reviewState.running) return;           // stopped while it waited
    started = await api("/api/review/start", {tab: ui.tab, history,
      visits: typedNumber($("review-visits"), "visits"), seed: typedNumber($("review-seed"), "seed")});
  } catch (err) {
    // Refused: the review's controls idle again, the error line says why.
    reviewSetRunning(false);
    $("review-state").textContent = "";
    $("review-progress").hidden = true;
    throw err;
  }
  reviewState.id = started.review;
  reviewState.total = started.total;
  reviewState.rounds = started.rounds;
  const early = reviewState.early;
  reviewState.early = [];
  for (const event of early) reviewAnswered(event);
  reviewProgress();
  reviewDraw();
}

async function reviewStop() {
  reviewSetRunning(false, `stopped at ${reviewState.done} of ${reviewState.total} positions`);
  if (ui.tab) await api("/api/review/stop", {tab: ui.tab});
}

// A review event of the page's stream (app.js's openStream hands it here).
function reviewAnswered(event) {
  if (reviewState.id === null) {
    if (reviewState.running) reviewState.early.push(event);
    return;
  }
  if (event.review !== reviewState.id) return;
  reviewState.total = event.total;
  reviewState.done = event.done;
  for (const point of event.positions || []) reviewState.points.set(point.index, point);
  for (const move of event.moves || []) reviewState.judged.set(move.index, move);
  if (event.summary) reviewState.summary = event.summary;
  if (event.error) showError(event.error);
  if (event.finished) {
    reviewState.finished = !event.stopped && !event.error;
    if (reviewState.running) {
      reviewSetRunning(false, event.stopped ? `stopped at ${event.done} of ${event.total} positions`
        : event.error ? "failed" : `done: ${event.total} positions`);
    }
  }
  reviewProgress();
  reviewDrawAll();
}

function reviewProgress() {
  const bar = $("review-progress");
  bar.max = Math.max(1, reviewState.total);
  bar.value = reviewState.done;
  if (reviewState.running) $("review-state").textContent = `${reviewState.done} of ${reviewState.total} positions`;
}

function reviewFillPlayers() {
  const select = $("review-player");
  const seats = engineSeats();
  let chosen = 1;                               // the first seat the engine does not play
  for (let p = 1; p <= reviewState.players; p++) if (!seats.includes(p)) { chosen = p; break; }
  select.replaceChildren();
  for (let p = 1; p <= reviewState.players; p++) select.add(new Option(`player ${p}`, p, false, p === chosen));
}

function reviewPlayer() {
  return Number($("review-player").value) || 1;
}

function reviewDrawAll() {
  reviewDraw();
  reviewSummary();
  reviewList();
  reviewControls();
}

// The controls that need a review: Save once one has points and none runs, Load while none
// runs, Practise when the chosen player has a marked move.
function reviewControls() {
  const idle = !reviewState.running;
  $("review-save").disabled = !idle || reviewState.points.size === 0;
  $("review-load").disabled = !idle;
  const count = idle ? reviewExercises(reviewPlayer()).length : 0;
  const button = $("review-practise");
  button.disabled = count === 0 || reviewState.practice !== null;
  button.textContent = count ? `Practise your mistakes (${count})` : "Practise your mistakes";
}

// ---- the graph ---------------------------------------------------------------------------

// The chosen player's win chance at each position: its point's figure, or (a position the
// engine did not value for that player: chance acts, another of three or four players moves,
// its search failed) the one before it, drawn hollow.
function reviewSeries() {
  const player = reviewPlayer();
  const series = [];
  let last = 1 / reviewState.players;
  reviewState.nodes.forEach((node, i) => {
    const point = reviewState.points.get(i);
    const known = point && point.chances && point.chances[player - 1] != null;
    if (!point && !reviewState.finished) return;    // not searched yet
    if (known) last = point.chances[player - 1];
    series.push({index: i, chance: last, carried: !known});
  });
  return series;
}

// A mark's shape centred on (cx, cy), about ``size`` across each way from its centre.
function reviewShape(parent, mark, cx, cy, size, attrs) {
  const shape = REVIEW_MARKS[mark].shape;
  const common = Object.assign({class: `review-mark mark-${mark}`, "data-mark": mark, "data-shape": shape}, attrs);
  if (shape === "circle") return el("circle", Object.assign({cx, cy, r: size}, common), parent);
  if (shape === "square") {
    const half = size * 0.85;
    return el("rect", Object.assign({x: cx - half, y: cy - half, width: 2 * half, height: 2 * half}, common), parent);
  }
  const w = size * 1.15;                    // a triangle on its point, like a warning sign turned over
  return el("polygon", Object.assign({points: `${cx - w},${cy - w * 0.8} ${cx + w},${cy - w * 0.8} ${cx},${cy + w}`},
    common), parent);
}

// A mark's shape as a small picture of its own, for the lists and the legend.
function reviewIcon(mark) {
  const svg = el("svg", {class: "mark-icon", viewBox: "-7 -7 14 14", width: 14, height: 14, "aria-hidden": "true"});
  reviewShape(svg, mark, 0, 0, 5);
  return svg;
}

// Move numbers along the bottom: the position after move n is at n; a step that leaves at
// most REVIEW_TICKS of them.
function reviewStep(last) {
  return REVIEW_STEPS.find((step) => last / step <= REVIEW_TICKS) || REVIEW_STEPS[REVIEW_STEPS.length - 1];
}

function reviewDraw() {
  const svg = $("review-graph");
  const g = REVIEW_GRAPH;
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.replaceChildren();
  const plotW = g.width - g.left - g.right, plotH = g.height - g.top - g.bottom;
  const last = Math.max(1, reviewState.nodes.length - 1);
  const x = (i) => g.left + plotW * i / last;
  const y = (chance) => g.top + plotH * (1 - chance);
  for (const level of [0, 0.5, 1]) {
    el("line", {x1: g.left, x2: g.left + plotW, y1: y(level), y2: y(level), class: "review-axis"}, svg);
    label(svg, g.left - 4, y(level), `${100 * level}%`, {"text-anchor": "end", "font-size": 10, class: "review-label"});
  }
  if (reviewState.nodes.length > 1) {
    const step = reviewStep(last);
    for (let n = 0; n <= last; n += step) {
      el("line", {x1: x(n), x2: x(n), y1: y(0), y2: y(0) + 3, class: "review-axis"}, svg);
      label(svg, x(n), y(0) + 10, String(n), {"font-size": 9, class: "review-label review-tick", "data-move": n});
    }
  }
  label(svg, g.left + plotW / 2, g.height - 5, "after move", {"font-size": 10, class: "review-label"});
  // Each round's start, between the round's first position and the one before it.
  for (const start of reviewState.rounds) {
    const at = x(start.index - 0.5);
    el("line", {x1: at, x2: at, y1: g.top, y2: y(0), class: "review-round", "data-index": start.index}, svg);
    const left = at > g.width - 50;         // near the right end: the label goes left of its line
    label(svg, left ? at - 2 : at + 2, g.top - 6, `round ${start.round}`, {"text-anchor": left ? "end" : "start",
      "font-size": 9, class: "review-label review-round-label"});
  }
  const series = reviewSeries();
  if (series.length > 1) {
    el("polyline", {points: series.map((p) => `${x(p.index)},${y(p.chance)}`).join(" "),
      class: "review-line", fill: "none"}, svg);
  }
  // The position on the board, when the board holds the reviewed game.
  const node = ui.history[ui.index];
  const current = node && reviewState.nodes[ui.index] && reviewState.nodes[ui.index].text === node.text ? ui.index : -1;
  for (const p of series) {
    const judged = reviewState.judged.get(p.index);
    const mark = judged && judged.mark;
    if (p.index === current) el("circle", {cx: x(p.index), cy: y(p.chance), r: 9, class: "review-ring"}, svg);
    if (mark) reviewShape(svg, mark, x(p.index), y(p.chance), 5.5, {"data-index": p.index});
    // The point itself: a dot, or over a mark's shape a clear disc that takes its clicks.
    const classes = ["review-point", p.carried ? "carried" : "", mark ? `mark-${mark} marked` : "",
      p.index === current ? "at" : ""].filter(Boolean).join(" ");
    const dot = el("circle", {cx: x(p.index), cy: y(p.chance), r: mark ? 6 : 3, class: classes,
      "data-index": p.index}, svg);
    el("title", {}, dot).textContent = reviewPointTitle(p, judged);
  }
}

function reviewPointTitle(p, judged) {
  const where = p.index ? `after move ${p.index}` : "start";
  let title = `${where}: ${(100 * p.chance).toFixed(1)}%`;
  if (judged) {
    title += `; move ${p.index + 1}, ${judged.move}, lost ${(100 * judged.lost.win).toFixed(1)}% and `
      + `${judged.lost.points.toFixed(1)} points` + (judged.mark ? ` (${judged.mark})` : "");
  }
  return title;
}

function reviewLegend() {
  const legend = document.getElementById("review-legend");
  if (legend.childElementCount) return;
  for (const [mark, spec] of Object.entries(REVIEW_MARKS)) {
    const item = document.createElement("span");
    item.className = "review-legend-item";
    item.append(reviewIcon(mark), ` ${spec.symbol} ${mark}`);
    legend.appendChild(item);
    const head = document.querySelector(`#review-summary th[data-mark="${mark}"]`);
    if (head) head.prepend(reviewIcon(mark), " ");
  }
}

// ---- each player's figures and the list of moves -------------------------------------------------

// Each player's moves judged, marks and accuracy, as the server counted them.
function reviewSummary() {
  const rows = $("review-summary").tBodies[0];
  rows.replaceChildren();
  for (const figures of reviewState.summary) {
    const row = rows.insertRow();
    row.dataset.player = figures.player;
    const cells = [`player ${figures.player}`, figures.accuracy == null ? "–" : figures.accuracy.toFixed(1),
      figures.inaccuracy, figures.mistake, figures.blunder, figures.moves];
    for (const value of cells) row.insertCell().textContent = value;
  }
}

// Every move judged: the costliest first (the most win share lost, then the most points), or
// in the game's order.
function reviewList() {
  const rows = $("review-costly").tBodies[0];
  rows.replaceChildren();
  const moves = [...reviewState.judged.values()];
  if ($("review-order").value === "game") moves.sort((a, b) => a.index - b.index);
  else moves.sort((a, b) => b.lost.win - a.lost.win || b.lost.points - a.lost.points || a.index - b.index);
  for (const move of moves) {
    const row = rows.insertRow();
    row.dataset.index = move.index;
    if (move.mark) row.className = `mark-${move.mark}`;
    row.insertCell().textContent = `${move.index + 1}. ${move.move}`;
    row.insertCell().textContent = move.player;
    const markCell = row.insertCell();
    if (move.mark) markCell.append(reviewIcon(move.mark), ` ${REVIEW_MARKS[move.mark].symbol} ${move.mark}`);
    for (const value of [(100 * move.lost.win).toFixed(1), move.lost.points.toFixed(1), move.best.move]) {
      row.insertCell().textContent = value;
    }
    row.addEventListener("click", () => guarded(() => reviewJump(move.index)));
  }
}

// The board shows another position: the graph marks it when it is one of the reviewed game;
// a practice ends when the board leaves its exercise.
function reviewPositionShown() {
  if (reviewState.practice && !reviewState.practice.judging && !reviewAtExercise()) {
    reviewPracticeEnd("practice ended: the board left the exercise");
  }
  if (reviewState.nodes.length) reviewDraw();
}

// The board goes to the position ``index`` of the reviewed game (the reviewed history comes
// back if the board moved on to another game), its best move outlined with ``outline``.
async function reviewJump(index, outline = true) {
  const nodes = reviewState.nodes;
  const same = ui.history.length >= nodes.length && nodes.every((node, i) => ui.history[i].text === node.text);
  if (!same) ui.history = nodes.slice();
  await jump(index);
  const judged = reviewState.judged.get(index);
  if (outline && judged && judged.best.move !== judged.move) {
    ui.best = judged.best.move;
    markTargets();
  }
}

// ---- saved reviews -----------------------------------------------------------------------------

// The review as docs/review.schema.json describes it.
function reviewDocument() {
  const byIndex = (a, b) => a.index - b.index;
  return Object.assign({}, REVIEW_FILE, {
    game: reviewState.game, players: reviewState.players, visits: reviewState.visits, seed: reviewState.seed,
    finished: reviewState.finished,
    history: reviewState.nodes.map((node, i) => {
      const entry = {text: node.text, move: i ? reviewMoveText(node.move) : null};
      if (i && node.move.endsWith(REVIEW_DEALT)) entry.dealt = true;
      if (node.rng != null) entry.rng = String(node.rng);
      return entry;
    }),
    // The engine's full answers stay out: the page draws the figures alone.
    points: [...reviewState.points.values()].sort(byIndex).map((point) => {
      const kept = Object.assign({}, point);
      delete kept.answer;
      return kept;
    }),
    moves: [...reviewState.judged.values()].sort(byIndex),
  });
}

function reviewSave() {
  const text = JSON.stringify(reviewDocument(), null, 1);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  link.download = `review-${reviewState.game}-${reviewState.nodes.length}-positions.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

// A saved review put on the board: checked by the server first (its schema, the history by
// the rules), so a bad file changes nothing and gets one error line.
async function reviewLoad(file) {
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (err) {
    throw new Error(`review file: ${file.name} is not JSON (${err.message})`);
  }
  const checked = await api("/api/review/load", {review: doc});
  const nodes = doc.history.map((entry, i) => ({move: i ? entry.move + (entry.dealt ? REVIEW_DEALT : "") : null,
    text: entry.text, rng: entry.rng == null ? undefined : entry.rng}));
  reviewReset(nodes, {id: "file", players: doc.players, game: doc.game, visits: doc.visits, seed: doc.seed,
    total: doc.points.length, done: doc.points.length, finished: doc.finished,
    points: new Map(doc.points.map((point) => [point.index, point])),
    judged: new Map(doc.moves.map((move) => [move.index, move])), rounds: checked.rounds, summary: checked.summary});
  $("review-visits").value = doc.visits;
  $("review-seed").value = doc.seed;
  $("review-progress").hidden = true;
  ui.history = nodes.slice();
  ui.index = 0;
  $("seats").replaceChildren();
  await show();
  followHeader(current().doc);
  reviewFillPlayers();
  $("review-state").textContent = `loaded ${file.name}: ${nodes.length} positions`;
  reviewDrawAll();
}

// ---- Practise your mistakes --------------------------------------------------------------------

// The marked moves of ``player``, in the game's order: the positions to practise.
function reviewExercises(player) {
  return [...reviewState.judged.values()].filter((move) => move.mark && move.player === player)
    .sort((a, b) => a.index - b.index);
}

function reviewExercise() {
  const practice = reviewState.practice;
  return practice && practice.exercises[practice.at];
}

// Whether the board shows the current exercise's position.
function reviewAtExercise() {
  const exercise = reviewExercise();
  const node = ui.history[ui.index];
  return Boolean(exercise && node && ui.index === exercise.index && node.text === reviewState.nodes[exercise.index].text);
}

// app.js asks before its engine plays a seat: never during a practice.
function reviewPractising() {
  return reviewState.practice !== null;
}

async function reviewPracticeStart() {
  const player = reviewPlayer();
  const exercises = reviewExercises(player);
  if (!exercises.length) throw new Error(`player ${player} has no marked move to practise`);
  if (ui.analysisOn) await stopAnalysis();      // it would show the answer
  reviewState.practice = {player, exercises, at: 0, judging: false, tries: 0, last: null,
    solved: new Set(), firstTry: new Set()};
  $("review-practice").hidden = false;
  reviewControls();
  await reviewGoTo(0);
}

async function reviewGoTo(at) {
  const practice = reviewState.practice;
  Object.assign(practice, {at, tries: 0, last: null});
  const exercise = practice.exercises[at];
  await reviewJump(exercise.index, false);
  if (reviewState.practice !== practice) return;
  $("review-exercise").textContent = `Exercise ${at + 1} of ${practice.exercises.length}: move ${exercise.index + 1}, `
    + `player ${exercise.player} to play. In the game: ${exercise.move} (${exercise.mark}). `
    + "Play a move as good as the best.";
  reviewVerdict("", null);
  $("review-next").textContent = at + 1 < practice.exercises.length ? "Next" : "Finish";
  // Where the review is under the board (a phone), the board comes into view for the try.
  const board = $("board").getBoundingClientRect();
  if ($("review").getBoundingClientRect().top >= board.bottom && (board.top < 0 || board.bottom > innerHeight)) {
    $("board-area").scrollIntoView({block: "start"});
  }
}

// The exercise's verdict, in the practice's panel and (in view of the board) under the board.
function reviewVerdict(text, good) {
  const line = $("review-verdict");
  line.textContent = text;
  line.className = good === null ? "" : good ? "good" : "bad";
  const exercise = reviewExercise();
  if (exercise) {
    $("hint").textContent = text || `Exercise ${reviewState.practice.at + 1} of ${reviewState.practice.exercises.length}:`
      + ` player ${exercise.player} to play; find a move as good as the best.`;
  }
}

// app.js's play asks first: a move on an exercise's position is a try, judged and not
// played (a promise), else null.
function reviewPracticeMove(move) {
  if (!reviewState.practice || !reviewAtExercise()) return null;
  return reviewTry(move);
}

async function reviewTry(move) {
  const practice = reviewState.practice;
  if (practice.judging) return;                 // one try at a time
  const exercise = practice.exercises[practice.at];
  practice.judging = true;
  ui.busy = true;                               // the board takes no other move meanwhile
  reviewVerdict(`judging ${move}…`, null);
  try {
    if (ui.analysisOn) await stopAnalysis();
    const tab = await reviewTab();
    const tried = await api("/api/review/try", {tab, position: reviewState.nodes[exercise.index].text, move,
      visits: reviewState.visits || 300, seed: reviewState.seed || 0});
    if (reviewState.practice !== practice || practice.exercises[practice.at] !== exercise) return;
    practice.tries += 1;
    practice.last = tried.verdict;
    const verdict = tried.verdict;
    const lost = `${(100 * verdict.lost.win).toFixed(1)}% and ${verdict.lost.points.toFixed(1)} points`;
    if (tried.good) {
      practice.solved.add(practice.at);
      if (practice.tries === 1) practice.firstTry.add(practice.at);
      reviewVerdict(verdict.best.move === verdict.move ? `✓ ${move}: the engine's best move.`
        : `✓ ${move}: as good as the best (it loses ${lost} against ${verdict.best.move}).`, true);
      ui.best = verdict.best.move;
      markTargets();
    } else {
      reviewVerdict(`✗ ${move} loses ${lost} against the best, ${verdict.best.move}: ${verdict.mark === "inaccuracy"
        ? "an" : "a"} ${verdict.mark}. Try again, or show the best.`, false);
    }
  } catch (err) {
    reviewVerdict("", null);
    throw err;
  } finally {
    practice.judging = false;
    ui.busy = false;
  }
}

function reviewShowBest() {
  const practice = reviewState.practice;
  const exercise = reviewExercise();
  if (!exercise) return;
  const best = practice.last ? practice.last.best.move : exercise.best.move;
  ui.best = best;
  markTargets();
  reviewVerdict(`The engine's best: ${best} (outlined on the board).`, null);
}

async function reviewNext() {
  const practice = reviewState.practice;
  if (!practice || practice.judging) return;
  if (practice.at + 1 < practice.exercises.length) return reviewGoTo(practice.at + 1);
  const count = practice.exercises.length;
  reviewPracticeEnd(`practice done: a good move found in ${practice.solved.size} of ${count} positions`
    + ` (${practice.firstTry.size} at the first try)`);
}

function reviewPracticeEnd(message) {
  if (!reviewState.practice) return;
  reviewState.practice = null;
  $("review-practice").hidden = true;
  $("hint").textContent = "";
  if (message) $("review-state").textContent = message;
  reviewControls();
}

// This script runs before app.js (whose $ and ui it uses once the page has started).
document.getElementById("review-start").addEventListener("click",
  () => guarded(() => (reviewState.running ? reviewStop() : reviewStart())));
document.getElementById("review-player").addEventListener("change", () => {
  reviewDraw();
  reviewControls();
});
document.getElementById("review-order").addEventListener("change", reviewList);
document.getElementById("review-graph").addEventListener("click", (event) => {
  const dot = event.target.closest("[data-index]");
  if (dot && !dot.classList.contains("review-round")) guarded(() => reviewJump(Number(dot.dataset.index)));
});
document.getElementById("review-save").addEventListener("click", () => guarded(async () => reviewSave()));
document.getElementById("review-load").addEventListener("click", () => document.getElementById("review-file").click());
document.getElementById("review-file").addEventListener("change", (event) => {
  const file = event.target.files[0];
  event.target.value = "";                      // the same file again is a change too
  if (file) guarded(() => reviewLoad(file));
});
document.getElementById("review-practise").addEventListener("click", () => guarded(reviewPracticeStart));
document.getElementById("review-show-best").addEventListener("click", () => guarded(async () => reviewShowBest()));
document.getElementById("review-next").addEventListener("click", () => guarded(reviewNext));
document.getElementById("review-practice-stop").addEventListener("click",
  () => guarded(async () => reviewPracticeEnd("practice stopped")));
reviewLegend();

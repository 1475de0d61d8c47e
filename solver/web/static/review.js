// Game review: the server searches every position of the game on the board (review.py,
// the analysis engine's analyzeTurns); this draws one player's win chance over the game,
// marks the moves by what they lost against the best, lists the costliest, and jumps to a
// position when its point (or row) is clicked. Uses app.js's ui, api, jump and markTargets.
"use strict";
const REVIEW_GRAPH = {width: 400, height: 150, left: 30, right: 8, top: 8, bottom: 18};
const REVIEW_COSTLIEST = 5;               // rows of the costliest moves
const REVIEW_DEALT = " (chance dealt)";   // app.js's label of a move after which chance was dealt
const REVIEW_TAB_WAIT_MS = 10_000;        // for the page's stream to open, at most

const reviewState = {
  id: null,             // the running or last review's id (the server's)
  running: false,
  nodes: [],            // the history reviewed (app.js's nodes)
  players: 2,
  total: 0,             // positions searched
  done: 0,
  finished: false,
  points: new Map(),    // history index -> {player, chances, margins, answer} or {error}
  judged: new Map(),    // history index -> the move played there, judged (review.py's judge)
  early: [],            // events that came before the server's answer named the review
};

function reviewMoveText(label) {
  return label.endsWith(REVIEW_DEALT) ? label.slice(0, -REVIEW_DEALT.length) : label;
}

function reviewSetRunning(running, message) {
  reviewState.running = running;
  $("review-start").textContent = running ? "Stop" : "Review the game";
  if (message) $("review-state").textContent = message;
}

// The page's stream id: it opens as the page starts, but a click can come first.
async function reviewTab() {
  for (let waited = 0; !ui.tab && waited < REVIEW_TAB_WAIT_MS; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ui.tab) throw new Error("the analysis stream is not open (reload the page)");
  return ui.tab;
}

async function reviewStart() {
  const nodes = ui.history.slice();
  const history = nodes.map((node, i) => ({text: node.text, move: i ? reviewMoveText(node.move) : null}));
  Object.assign(reviewState, {id: null, nodes, total: 0, done: 0, finished: false,
    points: new Map(), judged: new Map(), early: [], players: current().doc.players});
  reviewFillPlayers();
  reviewSetRunning(true, "starting…");       // the button is Stop from here on
  $("review-progress").hidden = false;
  $("review-progress").value = 0;
  reviewDraw();
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
  const early = reviewState.early;
  reviewState.early = [];
  for (const event of early) reviewAnswered(event);
  reviewProgress();
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
  if (event.error) showError(event.error);
  if (event.finished) {
    reviewState.finished = !event.stopped && !event.error;
    if (reviewState.running) {
      reviewSetRunning(false, event.stopped ? `stopped at ${event.done} of ${event.total} positions`
        : event.error ? "failed" : `done: ${event.total} positions`);
    }
  }
  reviewProgress();
  reviewDraw();
  reviewList();
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

// The chosen player's win chance at each position: its point's figure, or (a position the
// engine did not value for that player: chance acts, another of three or four players moves,
// its search failed) the one before it, drawn hollow.
function reviewSeries() {
  const player = Number($("review-player").value) || 1;
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
  label(svg, g.left + plotW / 2, g.height - 6, "position (move number)", {"font-size": 10, class: "review-label"});
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
    const classes = ["review-point", p.carried ? "carried" : "", mark ? `mark-${mark}` : "",
      p.index === current ? "at" : ""].filter(Boolean).join(" ");
    const dot = el("circle", {cx: x(p.index), cy: y(p.chance), r: mark ? 5 : 3, class: classes,
      "data-index": p.index}, svg);
    const title = el("title", {}, dot);
    title.textContent = `position ${p.index}: ${(100 * p.chance).toFixed(1)}%`
      + (judged ? `; ${judged.move} lost ${(100 * judged.lost.win).toFixed(1)}% and ${judged.lost.points.toFixed(1)} points`
        + (mark ? ` (${mark})` : "") : "");
  }
}

// The costliest moves: the most win share lost, then the most points.
function reviewList() {
  const rows = $("review-costly").tBodies[0];
  rows.replaceChildren();
  const costly = [...reviewState.judged.values()]
    .filter((m) => m.lost.win > 0 || m.lost.points > 0)
    .sort((a, b) => b.lost.win - a.lost.win || b.lost.points - a.lost.points)
    .slice(0, REVIEW_COSTLIEST);
  for (const move of costly) {
    const row = rows.insertRow();
    row.dataset.index = move.index;
    if (move.mark) row.className = `mark-${move.mark}`;
    const cells = [`${move.index + 1}. ${move.move}`, move.player, move.mark || "",
      `${(100 * move.lost.win).toFixed(1)}`, move.lost.points.toFixed(1), move.best.move];
    for (const value of cells) row.insertCell().textContent = value;
    row.addEventListener("click", () => guarded(() => reviewJump(move.index)));
  }
}

// The board shows another position: the graph marks it when it is one of the reviewed game.
function reviewPositionShown() {
  if (reviewState.nodes.length) reviewDraw();
}

// The board goes to the position ``index`` of the reviewed game (the reviewed history comes
// back if the board moved on to another game), its best move outlined.
async function reviewJump(index) {
  const nodes = reviewState.nodes;
  const same = ui.history.length >= nodes.length && nodes.every((node, i) => ui.history[i].text === node.text);
  if (!same) ui.history = nodes.slice();
  await jump(index);
  const judged = reviewState.judged.get(index);
  if (judged && judged.best.move !== judged.move) {
    ui.best = judged.best.move;
    markTargets();
  }
}

// This script runs before app.js (whose $ and ui it uses once the page has started).
document.getElementById("review-start").addEventListener("click",
  () => guarded(() => (reviewState.running ? reviewStop() : reviewStart())));
document.getElementById("review-player").addEventListener("change", reviewDraw);
document.getElementById("review-graph").addEventListener("click", (event) => {
  const dot = event.target.closest(".review-point");
  if (dot) guarded(() => reviewJump(Number(dot.dataset.index)));
});

// Why a move: under each ranked move of the analysis table, the engine's breakdown of its
// effect in the game's terms (POST /api/explain); and the principal variation stepped on
// the board (◀ ▶, or ← → while stepping) as a preview that leaves the history alone, the
// next move of the line outlined, with "play to here" to make the line's moves.
// Loaded before app.js: everything of app.js it uses (ui, current, api, play, ...) is
// called only once the page runs.
"use strict";

const why = {
  breakdowns: new Map(),  // "position text\nmove" -> the engine's breakdown
  asking: new Set(),      // positions whose breakdowns are being asked for
  lineMoves: [],          // the line offered for stepping (the chosen move's, else the best's)
  chosen: null,           // the move whose line is offered, picked by clicking its breakdown
  stepping: null,         // {node, moves, docs, step} while the line is shown on the board
};

const whyEl = (id) => document.getElementById(id);
const NEXT_COLOUR = "#e69f00";  // the line's next move on the board (style.css .next-move)

// ---- the breakdowns ------------------------------------------------------------------------

function breakdownText(breakdown) {
  return breakdown.terms.map((term) => term.text).join(" · ");
}

// Called by app.js each time it draws the analysis table: a row under each move's row
// with its breakdown, asked of the engine once per position and move.
function whyAnalysisShown(answer, rows) {
  const node = current();
  const text = node.doc.text;
  const shownMoves = answer.moves.slice(0, rows.rows.length).map((move) => move.move);
  const missing = shownMoves.filter((move) => !why.breakdowns.has(`${text}\n${move}`));
  [...rows.rows].forEach((row, i) => {
    row.dataset.move = shownMoves[i];
    const under = rows.insertRow(row.sectionRowIndex + 1);
    under.className = "why";
    under.dataset.move = shownMoves[i];
    const cell = under.insertCell();
    cell.colSpan = row.cells.length;
    const known = why.breakdowns.get(`${text}\n${shownMoves[i]}`);
    cell.textContent = known ? breakdownText(known) : "…";
    cell.title = "the move's effect; click to step its line";
    under.addEventListener("click", () => chooseLine(shownMoves[i]));
  });
  const best = answer.moves.length ? answer.moves[0] : null;
  const chosen = answer.moves.find((move) => move.move === why.chosen) || best;
  if (!why.stepping) offerLine(chosen ? chosen.pv || [chosen.move] : []);
  if (missing.length && !why.asking.has(text) && !node.doc.is_view) askBreakdowns(node, missing);
}

const KEPT_BREAKDOWNS = 5000;   // the breakdowns remembered, of every position seen

async function askBreakdowns(node, moves) {
  const text = node.doc.text;
  why.asking.add(text);
  try {
    const found = await api("/api/explain", {position: text, moves});
    if (why.breakdowns.size > KEPT_BREAKDOWNS) why.breakdowns.clear();
    for (const breakdown of found.moves) why.breakdowns.set(`${text}\n${breakdown.move}`, breakdown);
  } catch (err) {
    showError(err.message);
    return;
  } finally {
    why.asking.delete(text);
  }
  if (current() !== node) return;
  const waiting = [];
  for (const under of document.querySelectorAll("#analysis tr.why")) {
    const known = why.breakdowns.get(`${text}\n${under.dataset.move}`);
    if (known) under.cells[0].textContent = breakdownText(known);
    else waiting.push(under.dataset.move);
  }
  // Moves ranked into the table while this request ran (the last answer may bring them).
  if (waiting.length) await askBreakdowns(node, waiting);
}

// ---- the line ------------------------------------------------------------------------------

function chooseLine(move) {
  if (why.stepping) return;
  why.chosen = move;
  const answer = ui.answer && ui.answer.moves.find((entry) => entry.move === move);
  if (answer) offerLine(answer.pv || [answer.move]);
}

function offerLine(moves) {
  why.lineMoves = moves;
  drawLine();
}

function drawLine() {
  const moves = why.stepping ? why.stepping.moves : why.lineMoves;
  const step = why.stepping ? why.stepping.step : 0;
  const list = whyEl("line-moves");
  list.replaceChildren();
  moves.forEach((move, i) => {
    const item = document.createElement("span");
    item.textContent = move;
    item.dataset.index = i;
    if (i < step) item.className = "played";
    if (i === step) item.className = "next";
    list.append(item, i < moves.length - 1 ? " " : "");
  });
  whyEl("line-step").textContent = moves.length ? `${step}/${moves.length}` : "";
  whyEl("line-back").disabled = step === 0;
  whyEl("line-forward").disabled = step >= moves.length;
  whyEl("line-play").disabled = step === 0;
  whyEl("line-close").hidden = !why.stepping;
}

// The position ``step`` moves along the line, played without dealing chance (a line
// stops where chance acts).
async function lineDoc(step) {
  const line = why.stepping;
  while (line.docs.length <= step) {
    const before = line.docs[line.docs.length - 1];
    line.docs.push(await api("/api/play", {position: before.text, move: line.moves[line.docs.length - 1],
      rng: before.rng, deal: false}));
  }
  return line.docs[step];
}

async function stepLine(delta) {
  if (!why.stepping) {
    if (delta < 0 || !why.lineMoves.length) return;
    const node = current();
    why.stepping = {node, moves: why.lineMoves.slice(), docs: [node.doc], step: 0};
    ui.preview = true;
  }
  const line = why.stepping;
  const step = Math.max(0, Math.min(line.moves.length, line.step + delta));
  const doc = await lineDoc(step);
  if (why.stepping !== line) return;     // closed meanwhile
  line.step = step;
  drawPreview(doc);
  drawLine();
}

function drawPreview(doc) {
  const line = why.stepping;
  const svg = whyEl("board");
  svg.replaceChildren();
  const viewer = whyEl("viewer").value;
  const shown = viewer && doc.views
    ? Object.assign({}, doc, {json: doc.views[viewer], viewer: Number(viewer)}) : doc;
  BOARDS[doc.game].draw(svg, shown);
  svg.classList.toggle("previewing", line.step > 0);
  const next = doc.moves.find((move) => move.text === line.moves[line.step]);
  if (next) {
    const nodes = elementsOf(next);
    nodes.forEach((node) => node.classList.add("next-move"));
    drawArrow(svg, nodes);
    // The analysis's updates clear the best move's arrow; this one is the line's own.
    const arrows = svg.querySelectorAll(".best-arrow");
    if (arrows.length) {
      const marker = el("marker", {id: "next-arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"}, el("defs", {}, svg));
      el("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: NEXT_COLOUR}, marker);
    }
    arrows.forEach((arrow) => {
      arrow.setAttribute("class", "next-arrow");
      arrow.setAttribute("stroke", NEXT_COLOUR);
      arrow.setAttribute("marker-end", "url(#next-arrowhead)");
    });
  }
  whyEl("status").textContent = line.step === 0 ? doc.status
    : `the line, ${line.step} move${line.step > 1 ? "s" : ""} on: ${doc.status}`;
}

// Back to the position of the history (the board and its marks as they were).
function closeLine() {
  if (!why.stepping) return;
  why.stepping = null;
  ui.preview = false;
  whyEl("board").classList.remove("previewing");
  whyEl("status").textContent = current().doc.status;
  drawBoard();
  drawLine();
}

async function playToHere() {
  const line = why.stepping;
  if (!line || line.step === 0) return;
  const moves = line.moves.slice(0, line.step);
  closeLine();
  for (const move of moves) await play(move);
}

// Called by app.js when the history shows another position: the line belonged to the old one.
function whyPositionShown() {
  why.stepping = null;
  why.chosen = null;
  ui.preview = false;
  whyEl("board").classList.remove("previewing");
  offerLine([]);
}

// Called by app.js for a key: true when stepping the line took it (← → while stepping, Esc).
function whyKey(event) {
  if (!why.stepping) return false;
  if (event.key === "ArrowLeft") guarded(() => stepLine(-1));
  else if (event.key === "ArrowRight") guarded(() => stepLine(1));
  else if (event.key === "Escape") closeLine();
  else return false;
  event.preventDefault();
  return true;
}

whyEl("line-back").addEventListener("click", () => guarded(() => stepLine(-1)));
whyEl("line-forward").addEventListener("click", () => guarded(() => stepLine(1)));
whyEl("line-play").addEventListener("click", () => guarded(playToHere));
whyEl("line-close").addEventListener("click", () => closeLine());
// Another viewer: back to the game (app.js then draws it as that player sees it).
whyEl("viewer").addEventListener("change", () => closeLine());
// app.js draws the game's board again when the layout changes: the line's position
// goes back on after it.
window.addEventListener("resize", () => {
  if (why.stepping) requestAnimationFrame(() => drawPreview(why.stepping.docs[why.stepping.step]));
});

// The position editor, a mode of the page: the palette holds the board's own tiles and
// pieces (and the eraser); tap one, then the places on the board it goes, or drag it
// there (mouse or finger: pointer events). Each area of the board says in one line what a
// tap there does (the hint line, and a tooltip). The fields set the numbers.
// The editor holds the position in the game's JSON form (docs/*-notation.md), the fields
// it leaves to inference null, and sends it to the engine after every change
// (/api/editor/position). The answer is an ordinary one, legal or not yet: the position
// with what the engine inferred filled in, its document when legal, else the reason in
// one line and the fixes it found, each a button that applies it. "Done" starts the
// game's history from the position the engine read. Each game's editor (EDITORS) draws
// its board with places to tap (data-edit) and says what a tap does.
"use strict";
const EDITORS = {azul: AzulEditor, pavilion: PavilionEditor, azure: AzureEditor};
const GAME_NAMES = {azul: "Azul", pavilion: "Summer Pavilion", azure: "Azure"};
const DRAG_PX = 8;      // a press that moves this far is a drag, not a tap

const editing = {
  game: null,
  state: null,          // the position in its JSON form, inferred fields filled from the last answer
  auto: {},             // the fields left to inference (sent as null): the game editor's ``inferable``
  brush: null,          // the chosen piece: a tile or card letter, a stone, the marker or "erase"
  doc: null,            // the document of the latest legal position
  asked: 0,             // the number of the latest check (older answers are dropped)
};

const editorBox = () => document.getElementById("editor");

// ---- opening and closing ----------------------------------------------------------------

// The editor starts from the position on the board (a blank Azul one before any has arrived).
async function openEditor() {
  const shown = current() && current().doc;
  const game = shown ? shown.game : "azul";
  document.body.classList.add("editing");
  editorBox().hidden = false;
  if (!EDITORS[game] || (shown && shown.is_view)) {
    editing.game = game;
    buildEditor(null, shown && shown.is_view
      ? "The position editor edits complete positions, not a player's view: load the complete position."
      : null);
    return;
  }
  if (!shown) return startBlank(game);
  if (EDITORS[game].opened) EDITORS[game].opened(shown);
  startEditing(game, JSON.parse(JSON.stringify(shown.json)), true);
}

// A blank position of ``game``: Azure's keeps the realm of a new game's (seed 0) layout.
async function startBlank(game) {
  if (!EDITORS[game]) { editing.game = game; buildEditor(null); return; }
  if (EDITORS[game].opened) {
    const doc = await api("/api/new", {game, seed: 0, options: {}});
    EDITORS[game].opened(doc);
    startEditing(game, EDITORS[game].blank(2, doc.json));
    return;
  }
  startEditing(game, EDITORS[game].blank(2));
}

// Every inferable field is left to inference, except that on the board's position
// (``fromBoard``) only the editor's ``boardInfers`` are (Azul's bag, not its lid), so the
// position is the board's until something changes.
function startEditing(game, state, fromBoard) {
  const editorOf = EDITORS[game];
  editing.game = game;
  editing.auto = Object.fromEntries(editorOf.inferable.map((name) =>
    [name, !fromBoard || editorOf.boardInfers.includes(name)]));
  editing.state = state;
  editing.brush = editorOf.brushes[0];
  editing.doc = null;
  buildEditor(editorOf);
  editorChanged();
}

function closeEditor() {
  document.body.classList.remove("editing");
  editorBox().hidden = true;
  editorBox().replaceChildren();
  editing.asked += 1;               // answers still on their way are dropped
}

function finishEditing() {
  if (!editing.doc) return;
  const doc = editing.doc;
  closeEditor();
  $("seats").replaceChildren();
  followHeader(doc);                // app.js: the header shows the edited game
  return startHistory(doc);
}

// ---- the editor's panel -------------------------------------------------------------------

function node(tag, attrs, children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") made.textContent = value;
    else if (key.startsWith("on")) made.addEventListener(key.slice(2), value);
    else made.setAttribute(key, value);
  }
  for (const child of children || []) made.append(child);
  return made;
}

function buildEditor(editorOf, unavailable) {
  const box = editorBox();
  box.replaceChildren();
  const gameChoice = node("select", {id: "editor-game", "aria-label": "game to edit",
    onchange: (event) => guarded(() => startBlank(event.target.value))}, Object.entries(GAME_NAMES).map(([value, name]) => new Option(name, value, false, value === editing.game)));
  const head = node("div", {class: "editor-head"}, [node("strong", {text: "Edit position "}), gameChoice]);
  if (!editorOf) {
    box.append(head, node("p", {id: "editor-check", class: "editor-error",
      text: unavailable || `The position editor is not available for ${GAME_NAMES[editing.game]}: paste a position's text under Position instead.`}),
    node("div", {class: "editor-actions"}, [node("button", {id: "editor-cancel", text: "Close", onclick: closeEditor})]));
    return;
  }
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.id = "editor-board";
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the board being edited");
  svg.addEventListener("click", (event) => {
    const place = event.target.closest("[data-edit]");
    if (place) putPiece(place, editing.brush);
  });
  svg.addEventListener("pointerover", (event) => {
    const place = event.target.closest("[data-edit]");
    if (place) showHint(placeHint(editorOf, place));
  });
  const fields = node("div", {id: "editor-fields", class: "editor-fields"});
  box.append(head,
    node("div", {class: "editor-tools"}, [palette(editorOf),
      node("p", {id: "editor-hint", role: "note", text: editorOf.hint})]),
    svg, fields,
    node("p", {id: "editor-check", role: "status"}),
    node("div", {id: "editor-fixes", class: "editor-fixes"}),
    node("div", {class: "editor-actions"}, [
      node("button", {id: "editor-done", text: "Done", disabled: "", title: "play on from this position",
        onclick: () => guarded(finishEditing)}),
      node("button", {id: "editor-clear", text: "Clear", title: "an empty table and boards",
        onclick: () => startEditing(editing.game, editorOf.blank(editing.state.players))}),
      node("button", {id: "editor-cancel", text: "Cancel", title: "back to the game, unchanged", onclick: closeEditor})]),
    node("pre", {id: "editor-text", "aria-label": "the position's notation"}));
}

// ---- the palette: the board's pieces, tapped or dragged -------------------------------------

function palette(editorOf) {
  const box = node("div", {id: "editor-palette", class: "editor-palette", role: "toolbar",
    "aria-label": "pieces to put on the board"});
  for (const brush of editorOf.brushes) {
    const piece = editorOf.piece(brush);
    const button = node("button", {type: "button", "data-brush": brush, title: editorOf.brushTitle(brush),
      "aria-label": editorOf.brushTitle(brush), "aria-pressed": String(brush === editing.brush),
      class: `piece piece-${piece.shape}`, style: `--fill: ${piece.fill}; --ink: ${piece.ink}`,
      text: piece.text, onclick: () => chooseBrush(brush)});
    dragFrom(button, brush);
    box.append(button);
  }
  return box;
}

function chooseBrush(brush) {
  editing.brush = brush;
  for (const button of editorBox().querySelectorAll("[data-brush]")) {
    button.setAttribute("aria-pressed", String(button.dataset.brush === brush));
  }
  showHint(`${EDITORS[editing.game].brushTitle(brush)}: tap its places, or drag it there.`);
}

// A press on a palette piece that moves is a drag: a copy of the piece follows the
// pointer (a mouse or a finger alike) and, let go over a place of the board, is put there.
// The piece is chosen as well, for the taps that follow.
function dragFrom(button, brush) {
  let start = null, ghost = null, over = null, at = null;
  // Where the pointer last was: a finger lifted may report no position of its own.
  const target = () => {
    const found = at && document.elementFromPoint(at.x, at.y);
    const place = found && found.closest("#editor-board [data-edit]");
    return place || null;
  };
  const mark = (place) => {
    if (over) over.classList.remove("drop-target");
    over = place;
    if (over) {
      over.classList.add("drop-target");
      showHint(placeHint(EDITORS[editing.game], over));
    }
  };
  // A finger on a piece starts no gesture of the browser's: no scroll, and no fling after
  // a quick drag that would swallow the next tap; the pointer events below do the rest.
  button.addEventListener("touchstart", (event) => event.preventDefault(), {passive: false});
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    start = {x: event.clientX, y: event.clientY, id: event.pointerId};
    at = {x: event.clientX, y: event.clientY};
    button.setPointerCapture(event.pointerId);
  });
  button.addEventListener("pointermove", (event) => {
    if (!start || event.pointerId !== start.id) return;
    at = {x: event.clientX, y: event.clientY};
    if (!ghost && Math.hypot(at.x - start.x, at.y - start.y) < DRAG_PX) return;
    if (!ghost) {
      ghost = button.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.classList.add("piece-ghost");
      ghost.setAttribute("aria-hidden", "true");
      document.body.append(ghost);
    }
    ghost.style.left = `${at.x}px`;
    ghost.style.top = `${at.y}px`;
    mark(target());
  });
  const end = (event, put) => {
    if (!start || event.pointerId !== start.id) return;
    start = null;
    if (!ghost) {
      // A tap: a mouse's click chooses the piece; a finger's makes no click (no gesture).
      if (put && event.pointerType === "touch") chooseBrush(brush);
      return;
    }
    ghost.remove();
    ghost = null;
    const place = target();
    mark(null);
    chooseBrush(brush);
    if (put && place) putPiece(place, brush);
  };
  button.addEventListener("pointerup", (event) => end(event, true));
  button.addEventListener("pointercancel", (event) => end(event, false));
}

// ---- hints ---------------------------------------------------------------------------------

function showHint(text) {
  const line = document.getElementById("editor-hint");
  if (line) line.textContent = text;
}

function placeHint(editorOf, place) {
  return editorOf.hints[JSON.parse(place.dataset.edit).area] || editorOf.hint;
}

// A tooltip on every place: the hint of its area.
function hintTitle(element, editorOf, area) {
  const title = document.createElementNS(SVG_NS, "title");
  title.textContent = editorOf.hints[area] || editorOf.hint;
  element.append(title);
  return element;
}

// ---- putting pieces ------------------------------------------------------------------------

function putPiece(place, brush) {
  const editorOf = EDITORS[editing.game];
  showHint(placeHint(editorOf, place));
  editorOf.click(editing.state, JSON.parse(place.dataset.edit), brush, editing.auto);
  editorChanged();
}

// The fields of the game's editor, as inputs: a number, a choice, or a count per colour
// ("12/14/11/13/14"; empty for a count the engine infers). Fields marked ``more`` are
// under "More" (closed), the turn in progress and the like.
function drawFields(editorOf) {
  const box = document.getElementById("editor-fields");
  // A field the player is typing in keeps what they typed.
  const focused = document.activeElement;
  if (box.contains(focused) && focused.value !== focused.dataset.shown) return;
  const focusedName = box.contains(focused) ? focused.dataset.field : null;
  const moreOpen = box.querySelector("details") ? box.querySelector("details").open : false;
  box.replaceChildren();
  const more = node("details", {}, [node("summary", {text: "More"})]);
  if (moreOpen) more.open = true;
  for (const field of editorOf.fields(editing.state)) {
    let input;
    if (field.choices) {
      input = node("select", {}, field.choices.map((choice) =>
        new Option(String(choice), String(choice), false, String(choice) === String(field.value))));
    } else {
      input = node("input", {type: field.kind === "int" ? "number" : "text", size: field.size || 6});
      input.value = field.value == null ? "" : String(field.value);
      if (field.placeholder) input.placeholder = field.placeholder;
    }
    input.dataset.field = field.name;
    input.dataset.shown = input.value;
    input.addEventListener("change", () => {
      const error = field.set(editing.state, input.value, editing);
      if (error) {
        // Not sent: the position stays unfinished until the field reads.
        editing.asked += 1;
        editing.doc = null;
        document.getElementById("editor-done").disabled = true;
        showCheck(null, error);
        return;
      }
      input.dataset.shown = input.value;
      editorChanged();
    });
    (field.more ? more : box).append(node("label", {}, [`${field.label} `, input]));
    // Drawn again, the field keeps the keyboard's focus.
    if (field.name === focusedName) input.focus();
  }
  if (more.children.length > 1) box.append(more);
}

// ---- checking as it grows -------------------------------------------------------------------

function editedPosition() {
  const editorOf = EDITORS[editing.game];
  const position = JSON.parse(JSON.stringify(editing.state));
  for (const [name, inferred] of Object.entries(editing.auto)) if (inferred) editorOf.leaveOut(position, name);
  return position;
}

async function editorChanged() {
  const editorOf = EDITORS[editing.game];
  const asked = ++editing.asked;
  drawEditorBoard(editorOf);
  drawFields(editorOf);
  editing.doc = null;
  document.getElementById("editor-done").disabled = true;
  showCheck(null, null);
  let answer = null, error = null;
  try {
    answer = await api("/api/editor/position", {position: editedPosition()});
  } catch (err) {
    error = err.message;
  }
  if (asked !== editing.asked) return;         // a later change was sent meanwhile
  if (answer) {
    if (editorOf.answered) editorOf.answered(answer);
    if (answer.legal) {
      // The engine's reading is the position from now on (canonical order); inferred
      // fields stay inferred.
      editing.doc = answer;
      editing.state = JSON.parse(JSON.stringify(answer.json));
    } else {
      // What the engine inferred is drawn, though the position is not legal yet.
      for (const name of answer.inferred) editorOf.adopt(editing.state, answer.position, name);
    }
    drawEditorBoard(editorOf);
    drawFields(editorOf);
    document.getElementById("editor-done").disabled = !answer.legal;
  }
  showCheck(answer, error);
}

// The check's one line (legal and who acts; not legal yet and why; a field that does not
// read), the fixes offered, and the position's text once legal.
function showCheck(answer, error) {
  const line = document.getElementById("editor-check");
  const text = document.getElementById("editor-text");
  const fixes = document.getElementById("editor-fixes");
  if (!line) return;
  line.className = error ? "editor-error" : answer && !answer.legal ? "editor-unfinished" : "";
  line.textContent = error ? `error: ${error}` : !answer ? "checking…"
    : answer.legal ? `legal: ${answer.status}` : `not legal yet: ${answer.reason}`;
  text.textContent = answer && answer.legal ? answer.text : "";
  fixes.replaceChildren(...(answer && !answer.legal ? answer.fixes : []).map((fix) =>
    node("button", {type: "button", class: "editor-fix", text: `Fix: ${fix.label}`,
      onclick: () => applyFix(fix)})));
}

// A fix is the position to send instead: the fields it leaves null are inferred again.
function applyFix(fix) {
  const editorOf = EDITORS[editing.game];
  const state = JSON.parse(JSON.stringify(fix.position));
  for (const name of editorOf.inferable) {
    editing.auto[name] = editorOf.leftOut(state, name);
    if (editing.auto[name]) editorOf.adopt(state, editing.state, name);
  }
  editing.state = state;
  editorChanged();
}

function drawEditorBoard(editorOf) {
  const svg = document.getElementById("editor-board");
  svg.replaceChildren();
  editorOf.draw(svg, editing.state, editing.auto);
}

// ---- helpers the game editors share ---------------------------------------------------------

// A field left to inference is null at the top of the JSON form (Azul's bag), or, for a
// per-player one (Azure's supply), in every player.
function leaveOutField(position, name) { position[name] = null; }
function leftOutField(position, name) { return position[name] === null; }
function adoptField(target, source, name) { target[name] = JSON.parse(JSON.stringify(source[name])); }

// The board's layout for the editor: a narrow window (a phone) draws it in about one unit
// a pixel, its places at least 40 px each way, stacked; a wide one as the board.
function editorLayout(svg) {
  const narrow = svg.parentElement.clientWidth < 640;
  return narrow ? {narrow, width: 360, columns: 1, tile: 42, step: 44}
    : {narrow, width: 1000, columns: 2, tile: 30, step: 32};
}

// A tile set's letters ("-" is none).
function setLetters(text) { return text && text !== "-" ? [...text] : []; }
function setText(letters) { return letters.length ? letters.join("") : "-"; }

// A tap on slot ``slot`` of a set of tiles (cards), where order does not count: a tile
// there is replaced by the brush's; an empty slot is filled, and the empty slots before it
// too (one tap puts three blue tiles in a factory); the eraser takes the tile there away.
function editSet(text, slot, brush) {
  const letters = setLetters(text);
  if (brush === "erase") letters.splice(slot, 1);
  else if (slot < letters.length) letters[slot] = brush;
  else while (letters.length <= slot) letters.push(brush);
  return setText(letters);
}

// "12/14/11/13/14" into {name: count}; null for an empty text (inferred); a string error.
function readCounts(value, names, letters) {
  const text = value.trim();
  if (text === "") return null;
  const parts = text.split("/");
  if (parts.length !== names.length || !parts.every((part) => /^\d+$/.test(part.trim()))) {
    return `write ${names.length} counts ${letters.split("").join("/")}, like ${names.map(() => "3").join("/")}, or leave it empty to infer`;
  }
  return Object.fromEntries(names.map((name, i) => [name, Number(parts[i])]));
}

function countsValue(counts, names) { return names.map((name) => counts[name]).join("/"); }

// A field of counts per colour that the engine infers while it is left empty; given, it
// leaves ``partner`` (Azure's hidden deck beside its face-up decks) to inference.
function countsField(name, label, names, letters, partner) {
  return (state) => ({
    name, label, kind: "text", size: 24,
    value: editing.auto[name] ? "" : countsValue(state[name], names),
    placeholder: editing.auto[name] && state[name] ? `${countsValue(state[name], names)} (inferred)` : "inferred",
    set(state, value, editor) {
      const counts = readCounts(value, names, letters);
      if (typeof counts === "string") return `${name}: ${counts}`;
      editor.auto[name] = counts === null;
      if (counts) {
        state[name] = counts;
        if (partner) editor.auto[partner] = true;
      }
      return null;
    },
  });
}

function intField(name, label, get, put) {
  return {name, label, kind: "int", value: get,
    set(state, value) {
      if (!/^\d+$/.test(value.trim())) return `${name}: a whole number, not "${value}"`;
      put(state, Number(value));
      return null;
    }};
}

function choiceField(name, label, choices, value, put) {
  return {name, label, choices, value,
    set(state, chosen) { put(state, chosen); return null; }};
}

// A slot of a set of tiles (cards) to tap: the tile, or an empty slot; with the hint of
// its area as a tooltip.
function editTile(svg, x, y, size, letter, palette, place, editorOf, faded) {
  const attrs = {class: "clickable", "data-edit": JSON.stringify(place)};
  if (faded) attrs["fill-opacity"] = 0.45;
  const drawn = letter ? tile(svg, x, y, size, letter, palette, attrs) : emptySlot(svg, x, y, size, attrs);
  return editorOf ? hintTitle(drawn, editorOf, place.area) : drawn;
}

// A named row of a set of tiles (cards) across the board: the tiles and an empty slot
// after them, at least ``least`` slots, wrapped; the name left of it, or above it on a
// phone (and with ``above``). ``faded``: tiles the engine worked out. Returns the y below it.
function tileSetRow(svg, layout, name, letters, place, editorOf, palette, y, options) {
  const {least = 12, faded = false} = options || {};
  const above = layout.narrow || (options && options.above);
  const {tile: size, step} = layout;
  const left = above ? 8 : 90;
  const perLine = Math.floor((layout.width - left - 10) / step);
  const shown = Math.max(least, letters.length + 1);
  const lines = Math.ceil(shown / perLine);
  const width = Math.min(shown, perLine) * step;
  if (above) {
    label(svg, left, y + 9, name, {"font-size": 14, "font-weight": "bold", "text-anchor": "start"});
    y += 20;
  } else label(svg, 44, y + step / 2, name, {"font-size": 14, "font-weight": "bold"});
  el("rect", {x: left - 4, y: y - 2, width: width + 6, height: lines * step + 4, rx: 8,
    fill: "#e8e2d4", stroke: "#999"}, svg);
  for (let slot = 0; slot < shown; slot++) {
    editTile(svg, left + (slot % perLine) * step, y + Math.floor(slot / perLine) * step, size, letters[slot],
      palette, Object.assign({}, place, {slot}), editorOf, faded && slot < letters.length);
  }
  return y + lines * step + 10;
}

// Factories (displays) as circles of four slots, in rows; returns the y below them.
function factoryRows(svg, layout, factories, palette, editorOf) {
  const {tile: size, step} = layout;
  const perRow = layout.narrow ? 3 : factories.length > 7 ? 5 : factories.length;
  const spacing = layout.width / perRow;
  const radius = step * (layout.narrow ? 1.3 : 1.5);
  const rowHeight = 2 * radius + 26;
  factories.forEach((factory, f) => {
    const cx = spacing * (f % perRow + 0.5), cy = 22 + radius + Math.floor(f / perRow) * rowHeight;
    el("circle", {cx, cy, r: radius, fill: "#e8e2d4", stroke: "#999"}, svg);
    label(svg, cx, cy - radius - 9, `${editorOf.factoryName}${f + 1}`, {"font-size": 12, fill: "#555"});
    const letters = setLetters(factory);
    for (let slot = 0; slot < 4; slot++) {
      editTile(svg, cx - step + (slot % 2) * step + (step - size) / 2, cy - step + Math.floor(slot / 2) * step + (step - size) / 2,
        size, letters[slot], palette, {area: "factory", index: f, slot}, editorOf);
    }
  });
  return 22 + Math.ceil(factories.length / perRow) * rowHeight;
}

document.getElementById("edit").addEventListener("click", () => guarded(openEditor));
// While the editor is open the game behind it stays at its move: the keys that move
// through the game (app.js, keys.js) are held before they reach the page.
window.addEventListener("keydown", (event) => {
  if (document.body.classList.contains("editing") && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)
      && !(event.target.closest && event.target.closest("input, textarea, select"))) {
    event.stopPropagation();
  }
}, true);
// The boards side by side or stacked, as the window's width allows (editorLayout).
window.addEventListener("resize", () => {
  if (!editorBox().hidden && EDITORS[editing.game] && document.getElementById("editor-board")) {
    drawEditorBoard(EDITORS[editing.game]);
  }
});

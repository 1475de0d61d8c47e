// The position editor, a mode of the page: pick a brush (a tile, the marker, a card, or
// the eraser), click the board's places to put or erase, set the numbers in the fields.
// The editor holds the position in the game's JSON form (docs/*-notation.md) and sends it
// to the engine after every change (/api/editor/position), which reads it as the
// notation does and answers its document or its one-line error; "Done" starts the
// game's history from the position the engine read. Each game's editor (EDITORS) draws
// its board with clickable places (data-edit) and says what a click does.
"use strict";
const EDITORS = {azul: AzulEditor, pavilion: PavilionEditor, azure: AzureEditor};
const GAME_NAMES = {azul: "Azul", pavilion: "Summer Pavilion", azure: "Azure"};

const editing = {
  game: null,
  state: null,          // the position in its JSON form; counts left to inference are null
  auto: {},             // count fields (bag, lid, tower, faceup) the engine infers
  brush: null,          // the chosen brush: a tile or card letter, a stone, the marker or "erase"
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

// The counts are inferred (editorOf.counts), except that on the board's position
// (``fromBoard``) only the first is (the bag, Azure's face-up decks): the lid (tower)
// stays as it was, so the position is the board's until a tile changes.
function startEditing(game, state, fromBoard) {
  const editorOf = EDITORS[game];
  editing.game = game;
  editing.auto = Object.fromEntries(editorOf.counts.map((name, i) => [name, !fromBoard || i === 0]));
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
  const palette = node("div", {id: "editor-palette", class: "editor-palette"}, [node("span", {text: "Brush: "})]);
  for (const brush of editorOf.brushes) {
    const label = brush === "erase" ? "eraser" : brush;
    palette.append(node("button", {type: "button", "data-brush": brush, title: editorOf.brushTitle(brush),
      class: brush === editing.brush ? "chosen" : "", text: label,
      onclick: () => { editing.brush = brush; markBrush(); }}));
  }
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.id = "editor-board";
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the board being edited");
  svg.addEventListener("click", (event) => {
    const place = event.target.closest("[data-edit]");
    if (!place) return;
    editorOf.click(editing.state, JSON.parse(place.dataset.edit), editing.brush);
    editorChanged();
  });
  const fields = node("div", {id: "editor-fields", class: "editor-fields"});
  box.append(head, palette, svg, fields,
    node("p", {id: "editor-check", role: "status"}),
    node("div", {class: "editor-actions"}, [
      node("button", {id: "editor-done", text: "Done", disabled: "", onclick: () => guarded(finishEditing)}),
      node("button", {id: "editor-clear", text: "Clear", title: "an empty table and boards",
        onclick: () => startEditing(editing.game, editorOf.blank(editing.state.players))}),
      node("button", {id: "editor-cancel", text: "Cancel", onclick: closeEditor})]),
    node("pre", {id: "editor-text", "aria-label": "the position's notation"}));
}

function markBrush() {
  for (const button of editorBox().querySelectorAll("[data-brush]")) {
    button.classList.toggle("chosen", button.dataset.brush === editing.brush);
  }
}

// The fields of the game's editor, as inputs: a number, a choice, or a count per colour
// ("12/14/11/13/14"; empty for a count the engine infers).
function drawFields(editorOf) {
  const box = document.getElementById("editor-fields");
  // A field the player is typing in keeps what they typed.
  const focused = document.activeElement;
  if (box.contains(focused) && focused.value !== focused.dataset.shown) return;
  const focusedName = box.contains(focused) ? focused.dataset.field : null;
  box.replaceChildren();
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
    box.append(node("label", {}, [`${field.label} `, input]));
    // Drawn again, the field keeps the keyboard's focus.
    if (field.name === focusedName) input.focus();
  }
}

// ---- checking as it grows -------------------------------------------------------------------

function editedPosition() {
  const position = Object.assign({}, editing.state);
  for (const [name, inferred] of Object.entries(editing.auto)) if (inferred) position[name] = null;
  return position;
}

async function editorChanged() {
  const editorOf = EDITORS[editing.game];
  const asked = ++editing.asked;
  if (editorOf.realmFor) {
    // Azure: a changed layout changes the realm drawn.
    try {
      await editorOf.realmFor(editing.state);
    } catch (err) {
      if (asked === editing.asked) showCheck(null, err.message);
      return;
    }
    if (asked !== editing.asked) return;
  }
  drawEditorBoard(editorOf);
  drawFields(editorOf);
  editing.doc = null;
  document.getElementById("editor-done").disabled = true;
  showCheck(null, null);
  let doc = null, error = null;
  try {
    doc = await api("/api/editor/position", {position: editedPosition()});
  } catch (err) {
    error = err.message;
  }
  if (asked !== editing.asked) return;         // a later change was sent meanwhile
  showCheck(doc, error);
  if (!doc) return;
  editing.doc = doc;
  if (editorOf.opened) editorOf.opened(doc);
  // The engine's reading is the position from now on (canonical order); inferred counts
  // stay inferred.
  editing.state = JSON.parse(JSON.stringify(doc.json));
  drawEditorBoard(editorOf);
  drawFields(editorOf);
  document.getElementById("editor-done").disabled = false;
}

function showCheck(doc, error) {
  const line = document.getElementById("editor-check");
  const text = document.getElementById("editor-text");
  if (!line) return;
  line.className = error ? "editor-error" : "";
  line.textContent = error ? `error: ${error}` : doc ? `legal: ${doc.status}` : "checking…";
  text.textContent = doc ? doc.text : "";
}

function drawEditorBoard(editorOf) {
  const svg = document.getElementById("editor-board");
  svg.replaceChildren();
  editorOf.draw(svg, editing.state, editing.doc);
}

// ---- helpers the game editors share ---------------------------------------------------------

// A tile set's letters ("-" is none).
function setLetters(text) { return text && text !== "-" ? [...text] : []; }
function setText(letters) { return letters.length ? letters.join("") : "-"; }

// A click on slot ``slot`` of a tile set: the brush puts its tile there (or after the
// last), the eraser takes the tile there away.
function editSet(text, slot, brush) {
  const letters = setLetters(text);
  if (brush === "erase") letters.splice(slot, 1);
  else if (slot < letters.length) letters[slot] = brush;
  else letters.push(brush);
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

// A field of counts per colour that the engine infers while it is left empty.
function countsField(name, label, names, letters) {
  return (state) => ({
    name, label, kind: "text", size: 24,
    value: editing.auto[name] ? "" : countsValue(state[name], names),
    placeholder: editing.auto[name] && state[name] ? `${countsValue(state[name], names)} (inferred)` : "inferred",
    set(state, value, editor) {
      const counts = readCounts(value, names, letters);
      if (typeof counts === "string") return `${name}: ${counts}`;
      editor.auto[name] = counts === null;
      if (counts) state[name] = counts;
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

// A rectangle the editor's clicks find; ``place`` says which place it is.
function editPlace(svg, x, y, width, height, place) {
  return el("rect", {x, y, width, height, rx: 4, fill: "transparent", stroke: "#999",
    "stroke-dasharray": "3 3", class: "clickable", "data-edit": JSON.stringify(place)}, svg);
}

function editTile(svg, x, y, size, letter, palette, place) {
  const attrs = {class: "clickable", "data-edit": JSON.stringify(place)};
  return letter ? tile(svg, x, y, size, letter, palette, attrs) : emptySlot(svg, x, y, size, attrs);
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
// The boards side by side or stacked, as the window's width allows (boardLayout).
window.addEventListener("resize", () => {
  if (!editorBox().hidden && EDITORS[editing.game] && document.getElementById("editor-board")) {
    drawEditorBoard(EDITORS[editing.game]);
  }
});

// The Azure position editor (editor.js): stones on the realm (each player's common
// stones and gifted stone), who holds each beast (a tap on its mountain), and the cards of
// the hidden deck, the hands and what the opponent knows of them, by tapping or dragging;
// the layout, the Gifted card, the turn, the face-up decks and scores in fields, the turn
// in progress under More. The engine works out the rest (tessera.notation.azure.editing):
// each supply from the stones, the beasts from the stones (a stone on the Black mountain
// holds the Tortoise; a player who would take a beast takes it), and the hidden deck from
// the face-up decks or the face-up decks from the deck. The position is the notation's
// JSON form of a complete position (docs/azure-notation.md). The realm drawn is the one
// of the layout, which comes with every answer of the engine.
"use strict";
const AZURE_PLACES = ["top-left", "top-right", "bottom-left", "bottom-right"];
const AZURE_PHASES = ["setup", "place", "boon", "take", "return", "bird-draw", "bird-return", "over"];
const AZURE_GIFTED = ["none", "mighty", "perceptive", "bountiful", "favored"];
const AZURE_BEASTS = ["dragon", "tiger", "bird", "tortoise"];   // the notation's order (by colour)

// The layout as the text form writes it ("A1@270 V1@90 B2@90 W1@0") and back.
function azureLayoutText(layout) {
  return AZURE_PLACES.map((place) => {
    const domain = layout[place];
    return `${AZURE_ORDER[AZURE_NAMES.indexOf(domain.domain)]}${domain.side}@${domain.rotation}${domain.large ? "*" : ""}`;
  }).join(" ");
}

function azureLayoutObject(text) {
  const tokens = text.trim().split(/\s+/);
  const domains = tokens.map((token) => /^([AWVB])([12])@(0|90|180|270)(\*?)$/.exec(token.toUpperCase()));
  if (tokens.length !== 4 || domains.some((found) => !found)) return null;
  return Object.fromEntries(AZURE_PLACES.map((place, i) => [place, {
    domain: AZURE_NAMES[AZURE_ORDER.indexOf(domains[i][1])], side: Number(domains[i][2]),
    rotation: Number(domains[i][3]), large: domains[i][4] === "*"}]));
}

function nullable(value) { return value === null ? "-" : value; }

const AzureEditor = {
  inferable: ["faceup", "deck", "supply"],
  boardInfers: ["faceup", "supply"],
  brushes: ["1", "2", "G1", "G2", ...AZURE_ORDER, "erase"],
  factoryName: "",
  realm: null,          // the realm drawn: {layout, cells, size, track}
  hint: "Tap a piece, then its places, or drag it. Supplies, beasts, unseen cards are worked out.",
  hints: {
    cell: "Space: a player's stone (G: the gifted one) goes here; supplies follow.",
    mountain: "Mountain: a player's stone gives them its beast, as far as the guards allow.",
    deck: "Hidden deck: worked out from the face-up decks; a tap sets it by hand.",
    hand: "Hand: a card fills up to the slot tapped; the eraser takes one away.",
    known: "Known: the cards of that hand the opponent saw taken face up.",
  },

  brushTitle(brush) {
    if (brush === "erase") return "the eraser";
    if (brush === "1" || brush === "2") return `a stone of player ${brush}`;
    if (brush.startsWith("G")) return `player ${brush[1]}'s gifted stone`;
    return `a ${AZURE_NAMES[AZURE_ORDER.indexOf(brush)]} card`;
  },

  // The palette shows the board's pieces: a player's disc, a gifted diamond, a card.
  piece(brush) {
    if (brush === "erase") return {shape: "eraser", fill: "#fff", ink: "#222", text: "✕"};
    if (brush === "1" || brush === "2") return {shape: "disc", fill: AZURE_PLAYERS[brush], ink: "#000", text: brush};
    if (brush.startsWith("G")) return {shape: "diamond", fill: AZURE_PLAYERS[brush[1]], ink: "#000", text: brush[1]};
    return {shape: "tile", fill: AZURE_DOMAINS[brush].fill, ink: AZURE_DOMAINS[brush].ink, text: brush};
  },

  // Supplies are left out player by player; the decks at the top.
  leaveOut(position, name) {
    if (name === "supply") for (const player of position.players) player.supply = null;
    else position[name] = null;
  },
  leftOut(position, name) {
    return name === "supply" ? position.players.every((player) => player.supply === null) : position[name] === null;
  },
  adopt(target, source, name) {
    if (name === "supply" || name === "beasts") {
      target.players.forEach((player, p) => { player[name] = JSON.parse(JSON.stringify(source.players[p][name])); });
    } else target[name] = JSON.parse(JSON.stringify(source[name]));
  },

  // The realm of the position on the board (the editor starts from it), no stones, no cards.
  blank(players, from) {
    const base = from || editing.state;
    const player = () => ({score: 0, supply: base.cosmos ? 18 : 14, stones: [], gifted: null, beasts: [],
      hand: "-", known: "-"});
    return {game: "azure", gifted: base.gifted, cosmos: base.cosmos, track: base.cosmos ? 0 : null, view: null,
      layout: base.layout, phase: "place", turn: 1, winner: null, step: null, draws: 0, placed: null,
      takes: 0, returns: 0, bird_loser: null, faceup: {azure: 9, white: 9, vermillion: 9, black: 9},
      deck: "-", players: [player(), player()]};
  },

  // The editor opens on a complete position (a player's view shows too little to edit).
  opened(doc) {
    this.realm = Object.assign({layout: azureLayoutText(doc.json.layout)}, doc.realm);
  },

  // Every answer brings the realm of the layout sent (unless the layout does not read).
  answered(answer) {
    const sent = answer.legal ? answer.json : answer.position;
    if (answer.realm && sent && sent.layout) this.realm = Object.assign({layout: azureLayoutText(sent.layout)}, answer.realm);
  },

  click(state, place, brush, auto) {
    const stone = brush === "1" || brush === "2" || brush.startsWith("G");
    if (place.area === "cell" || (place.area === "mountain" && place.beast === "tortoise")) {
      if (brush !== "erase" && !stone) return;
      // What was on the cell leaves it ...
      for (const player of state.players) {
        if (player.stones.includes(place.cell)) {
          player.stones = player.stones.filter((cell) => cell !== place.cell);
          if (!auto.supply) player.supply += 1;
        }
        if (player.gifted === place.cell) player.gifted = null;
      }
      if (brush === "erase") return;
      // ... and the brush's stone takes it (on the Black mountain, a common stone).
      const player = state.players[Number(brush.slice(-1)) - 1];
      if (brush.startsWith("G") && place.area === "cell") player.gifted = place.cell;
      else {
        player.stones.push(place.cell);
        if (!auto.supply) player.supply -= 1;
      }
    } else if (place.area === "mountain") {
      // A player's piece gives them the mountain's beast; the eraser frees it.
      if (brush !== "erase" && !stone) return;
      for (const player of state.players) player.beasts = player.beasts.filter((beast) => beast !== place.beast);
      if (brush === "erase") return;
      const beasts = state.players[Number(brush.slice(-1)) - 1].beasts;
      beasts.push(place.beast);
      beasts.sort((a, b) => AZURE_BEASTS.indexOf(a) - AZURE_BEASTS.indexOf(b));
    } else {
      if (brush !== "erase" && !AZURE_ORDER.includes(brush)) return;
      if (place.area === "deck" && auto.deck) {
        // The hidden deck set by hand, from empty: the face-up decks hold the rest.
        auto.deck = false;
        auto.faceup = true;
        state.deck = "-";
      }
      const owner = place.area === "deck" ? state : state.players[place.player - 1];
      owner[place.area] = editSet(owner[place.area], place.slot, brush);
    }
  },

  fields(state) {
    const players = [1, 2];
    const more = (field) => Object.assign(field, {more: true});
    const optionalPlayer = (name, label) => more(choiceField(name, label, ["-", 1, 2], nullable(state[name]),
      (s, v) => { s[name] = v === "-" ? null : Number(v); }));
    const whole = (name, label) => more(intField(name, label, state[name], (s, v) => { s[name] = v; }));
    const fields = [
      {name: "layout", label: "Layout", kind: "text", size: 24, value: azureLayoutText(state.layout),
        set(s, value) {
          const layout = azureLayoutObject(value);
          if (!layout) return `layout: four domains like A1@0 W2@90 V1@180 B2@270 (* marks Cosmos's large ones), not "${value}"`;
          s.layout = layout;
          return null;
        }},
      choiceField("gifted", "Gifted card", AZURE_GIFTED, state.gifted, (s, v) => { s.gifted = v; }),
      choiceField("turn", "Turn", players, state.turn, (s, v) => { s.turn = Number(v); }),
      countsField("faceup", "Face-up A/W/V/B", AZURE_NAMES, AZURE_ORDER, "deck")(state),
      ...players.map((p) => intField(`score-${p}`, `Score P${p}`, state.players[p - 1].score,
        (s, v) => { s.players[p - 1].score = v; })),
    ];
    if (state.cosmos) {
      fields.push({name: "track", label: "Cosmos track", kind: "text", size: 4, value: state.track,
        set(s, value) {
          if (!/^[+-]?\d+$/.test(value.trim())) return `track: a whole number (+ toward player 1), not "${value}"`;
          s.track = Number(value);
          return null;
        }});
    }
    fields.push(
      more(choiceField("phase", "Phase", AZURE_PHASES, state.phase, (s, v) => { s.phase = v; })),
      optionalPlayer("winner", "Winner"),
      more(choiceField("step", "Step", ["-", "boon", "take", "beasts"], nullable(state.step),
        (s, v) => { s.step = v === "-" ? null : v; })),
      whole("draws", "Draws"),
      more({name: "placed", label: "Placed", kind: "text", size: 3, value: nullable(state.placed),
        set(s, value) { s.placed = ["", "-"].includes(value.trim()) ? null : value.trim(); return null; }}),
      whole("takes", "Takes"),
      whole("returns", "Returns"),
      optionalPlayer("bird_loser", "Bird's loser"),
    );
    return fields;
  },

  draw(svg, state, auto) {
    const layout = editorLayout(svg);
    const realm = this.realm && this.realm.layout === azureLayoutText(state.layout) ? this.realm : null;
    const left = layout.narrow ? 22 : 30, top = 30;
    const size = realm ? Math.min(60, Math.floor((layout.width - left - 4) / realm.size)) : 60;
    let y = top;
    if (realm) {
      const owner = {};
      state.players.forEach((player, p) => {
        for (const cell of player.stones) owner[cell] = {player: p + 1, gifted: false};
        if (player.gifted) owner[player.gifted] = {player: p + 1, gifted: true};
      });
      const holder = (beast) => {
        const p = state.players.findIndex((player) => player.beasts.includes(beast));
        return p < 0 ? null : p + 1;
      };
      for (let i = 0; i < realm.size; i++) {
        label(svg, left + i * size + size / 2, top - 12, "abcdefgh"[i], {"font-size": 13, fill: "#666"});
        label(svg, left - 12, top + i * size + size / 2, String(i + 1), {"font-size": 13, fill: "#666"});
      }
      for (const cell of realm.cells) {
        const x = left + cell.col * size, cy = top + cell.row * size;
        const colour = AZURE_DOMAINS[cell.domain];
        const place = cell.kind === "mountain" ? {area: "mountain", cell: cell.cell, beast: cell.beast} : {area: "cell", cell: cell.cell};
        hintTitle(el("rect", {x: x + 1, y: cy + 1, width: size - 2, height: size - 2, rx: 5, fill: colour.fill, stroke: "#333",
          class: "clickable", "data-edit": JSON.stringify(place)}, svg), this, place.area);
        const ink = {fill: colour.ink, "font-size": size < 50 ? 9 : 11};
        if (cell.kind === "mountain") {
          const held = holder(cell.beast);
          label(svg, x + size / 2, cy + 11, `▲ ${BEASTS[cell.beast]}`, ink);
          label(svg, x + size / 2, cy + 23, held ? `${layout.narrow ? "" : "held by "}P${held}` : "free", ink);
        } else {
          const symbols = (cell.qi ? cell.qi_colour.repeat(cell.qi) : "") + (cell.wisdom ? ` +${cell.wisdom}` : "")
            + "☼".repeat(cell.cosmos) + (cell.serpent ? " ~" : "");
          label(svg, x + size / 2, cy + 12, symbols, Object.assign({}, ink, {"font-weight": "bold"}));
          if (!owner[cell.cell]) label(svg, x + size / 2, cy + size - 18, `(${cell.cost})`, ink);
        }
        const stone = owner[cell.cell];
        // A stone lets the tap through to its cell.
        if (stone) AzureBoard.stone(el("g", {"pointer-events": "none"}, svg), x + size / 2, cy + size - 15, stone.player, stone.gifted);
      }
      y = top + realm.size * size + 12;
    } else {
      label(svg, left, y, "the realm of this layout comes with the engine's answer", {"text-anchor": "start"});
      y += 20;
    }
    const rowOptions = {above: true, least: 8};
    y = tileSetRow(svg, layout, auto.deck ? "Hidden deck (worked out: tap to set it)" : "Hidden deck",
      setLetters(state.deck), {area: "deck"}, this, AZURE_DOMAINS, y, Object.assign({}, rowOptions, {faded: auto.deck, least: 12}));
    state.players.forEach((player, p) => {
      const supply = player.supply === null ? "?" : player.supply;
      label(svg, 8, y + 10, `Player ${p + 1} · ${player.score} points · ${supply} stones in supply`,
        {"text-anchor": "start", "font-size": 13, "font-weight": "bold"});
      label(svg, 8, y + 28, `beasts: ${player.beasts.map((b) => BEASTS[b] || b).join(", ") || "none"}`
        + (player.gifted ? ` · gifted stone on ${player.gifted}` : ""), {"text-anchor": "start", "font-size": 13});
      y += 40;
      y = tileSetRow(svg, layout, `P${p + 1} hand`, setLetters(player.hand), {area: "hand", player: p + 1}, this,
        AZURE_DOMAINS, y, rowOptions);
      y = tileSetRow(svg, layout, `P${p + 1} cards known to P${2 - p}`, setLetters(player.known),
        {area: "known", player: p + 1}, this, AZURE_DOMAINS, y, Object.assign({}, rowOptions, {least: 6}));
    });
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${y + 10}`);
  },
};

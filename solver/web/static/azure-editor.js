// The Azure position editor (editor.js): stones on the realm (each player's common
// stones and gifted stone) and the cards of the hidden deck, the hands and what the
// opponent knows of them by clicking; the layout, the Gifted card, the turn in progress,
// scores, supplies, beasts and face-up decks in fields. The position is the notation's
// JSON form of a complete position (docs/azure-notation.md). The realm drawn is the one
// of the layout (the last legal position's, or asked for when the layout changes).
"use strict";
const AZURE_PLACES = ["top-left", "top-right", "bottom-left", "bottom-right"];
const AZURE_PHASES = ["setup", "place", "boon", "take", "return", "bird-draw", "bird-return", "over"];
const AZURE_GIFTED = ["none", "mighty", "perceptive", "bountiful", "favored"];
const AZURE_CELL = 60;

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
  counts: ["faceup"],
  brushes: ["1", "2", "G1", "G2", ...AZURE_ORDER, "erase"],
  realm: null,          // the realm drawn: {layout, cells, size, track}

  brushTitle(brush) {
    if (brush === "erase") return "take a stone or a card away";
    if (brush === "1" || brush === "2") return `a common stone of player ${brush}`;
    if (brush.startsWith("G")) return `player ${brush[1]}'s gifted stone`;
    return `a ${AZURE_NAMES[AZURE_ORDER.indexOf(brush)]} card`;
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

  click(state, place, brush) {
    if (place.area === "cell") {
      const stone = brush === "1" || brush === "2" || brush.startsWith("G");
      if (brush !== "erase" && !stone) return;
      // What was on the cell leaves it (a common stone back to its supply) ...
      for (const player of state.players) {
        if (player.stones.includes(place.cell)) {
          player.stones = player.stones.filter((cell) => cell !== place.cell);
          player.supply += 1;
        }
        if (player.gifted === place.cell) player.gifted = null;
      }
      if (brush === "erase") return;
      // ... and the brush's stone takes it (a common one from the supply).
      const player = state.players[Number(brush.slice(-1)) - 1];
      if (brush.startsWith("G")) player.gifted = place.cell;
      else { player.stones.push(place.cell); player.supply -= 1; }
    } else {
      if (brush !== "erase" && !AZURE_ORDER.includes(brush)) return;
      const owner = place.area === "deck" ? state : state.players[place.player - 1];
      owner[place.area] = editSet(owner[place.area], place.slot, brush);
    }
  },

  fields(state) {
    const players = [1, 2];
    const optionalPlayer = (name, label) => choiceField(name, label, ["-", 1, 2], nullable(state[name]),
      (s, v) => { s[name] = v === "-" ? null : Number(v); });
    const whole = (name, label) => intField(name, label, state[name], (s, v) => { s[name] = v; });
    const fields = [
      {name: "layout", label: "Layout", kind: "text", size: 24, value: azureLayoutText(state.layout),
        set(s, value) {
          const layout = azureLayoutObject(value);
          if (!layout) return `layout: four domains like A1@0 W2@90 V1@180 B2@270 (* marks Cosmos's large ones), not "${value}"`;
          s.layout = layout;
          return null;
        }},
      choiceField("gifted", "Gifted card", AZURE_GIFTED, state.gifted, (s, v) => { s.gifted = v; }),
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
      choiceField("phase", "Phase", AZURE_PHASES, state.phase, (s, v) => { s.phase = v; }),
      choiceField("turn", "Turn", players, state.turn, (s, v) => { s.turn = Number(v); }),
      optionalPlayer("winner", "Winner"),
      choiceField("step", "Step", ["-", "boon", "take", "beasts"], nullable(state.step),
        (s, v) => { s.step = v === "-" ? null : v; }),
      whole("draws", "Draws"),
      {name: "placed", label: "Placed", kind: "text", size: 3, value: nullable(state.placed),
        set(s, value) { s.placed = ["", "-"].includes(value.trim()) ? null : value.trim(); return null; }},
      whole("takes", "Takes"),
      whole("returns", "Returns"),
      optionalPlayer("bird_loser", "Bird's loser"),
      countsField("faceup", "Face-up A/W/V/B", AZURE_NAMES, AZURE_ORDER)(state),
    );
    for (const p of players) {
      const player = state.players[p - 1];
      fields.push(
        intField(`score-${p}`, `Score P${p}`, player.score, (s, v) => { s.players[p - 1].score = v; }),
        intField(`supply-${p}`, `Supply P${p}`, player.supply, (s, v) => { s.players[p - 1].supply = v; }),
        {name: `beasts-${p}`, label: `Beasts P${p}`, kind: "text", size: 18, value: player.beasts.join(",") || "-",
          set(s, value) {
            const text = value.trim();
            s.players[p - 1].beasts = ["", "-"].includes(text) ? [] : text.split(",").map((b) => b.trim());
            return null;
          }});
    }
    return fields;
  },

  // The realm drawn for the editor's layout: the last one known (a new one is asked for
  // when the layout changes).
  async realmFor(state) {
    const layout = azureLayoutText(state.layout);
    if (!this.realm || this.realm.layout !== layout) {
      const answer = await api("/api/editor/realm", {layout, cosmos: state.cosmos});
      this.realm = Object.assign({layout}, answer.realm);
    }
    return this.realm;
  },

  draw(svg, state) {
    const realm = this.realm;
    const size = AZURE_CELL, left = 30, top = 30;
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
        label(svg, left - 14, top + i * size + size / 2, String(i + 1), {"font-size": 13, fill: "#666"});
      }
      for (const cell of realm.cells) {
        const x = left + cell.col * size, cy = top + cell.row * size;
        const colour = AZURE_DOMAINS[cell.domain];
        el("rect", {x: x + 1, y: cy + 1, width: size - 2, height: size - 2, rx: 5, fill: colour.fill, stroke: "#333",
          class: "clickable", "data-edit": JSON.stringify({area: "cell", cell: cell.cell})}, svg);
        const ink = {fill: colour.ink, "font-size": 11};
        if (cell.kind === "mountain") {
          const held = holder(cell.beast);
          label(svg, x + size / 2, cy + 13, `▲ ${BEASTS[cell.beast]}`, ink);
          label(svg, x + size / 2, cy + 28, held ? `held by P${held}` : "free", ink);
        } else {
          const symbols = (cell.qi ? cell.qi_colour.repeat(cell.qi) : "") + (cell.wisdom ? ` +${cell.wisdom}` : "")
            + "☼".repeat(cell.cosmos) + (cell.serpent ? " ~" : "");
          label(svg, x + size / 2, cy + 12, symbols, Object.assign({}, ink, {"font-weight": "bold"}));
          if (!owner[cell.cell]) label(svg, x + size / 2, cy + 38, `(${cell.cost})`, ink);
        }
        const stone = owner[cell.cell];
        // A stone lets the click through to its cell.
        if (stone) AzureBoard.stone(el("g", {"pointer-events": "none"}, svg), x + size / 2, cy + (cell.kind === "mountain" ? 46 : 38), stone.player, stone.gifted);
      }
      y = top + realm.size * size + 12;
    } else {
      label(svg, left, y, "the realm of this layout is not known yet", {"text-anchor": "start"});
      y += 20;
    }
    const cards = (name, area, text, player, rowY) => {
      label(svg, left, rowY + 11, name, {"text-anchor": "start", "font-size": 13, "font-weight": "bold"});
      const letters = setLetters(text);
      for (let slot = 0; slot <= letters.length; slot++) {
        editTile(svg, left + 150 + slot * 24, rowY, 22, letters[slot], AZURE_DOMAINS,
          player ? {area, player, slot} : {area, slot});
      }
      return rowY + 28;
    };
    y = cards("Hidden deck", "deck", state.deck, null, y);
    state.players.forEach((player, p) => {
      label(svg, left, y + 10, `Player ${p + 1} · ${player.score} points · ${player.supply} stones in supply · beasts: `
        + (player.beasts.map((b) => BEASTS[b] || b).join(", ") || "none")
        + (player.gifted ? ` · gifted stone on ${player.gifted}` : ""), {"text-anchor": "start", "font-size": 13});
      y += 24;
      y = cards(`P${p + 1} hand`, "hand", player.hand, p + 1, y);
      y = cards(`P${p + 1} known to P${2 - p}`, "known", player.known, p + 1, y);
    });
    const width = Math.max(left + (realm ? realm.size : 6) * size + 20, 900);
    svg.setAttribute("viewBox", `0 0 ${width} ${y + 10}`);
  },
};

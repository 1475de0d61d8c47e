// The Summer Pavilion position editor (editor.js): displays, the centre, the supply, each
// player's stars, hand and kept tiles by clicking; the header (round and its wild colour,
// phase, token, passed players), scores, bag and tower in fields. The position is the
// notation's JSON form (docs/pavilion-notation.md).
"use strict";
const PAVILION_PHASES = ["refill", "draft", "place", "bonus", "keep", "resupply", "over"];

const PavilionEditor = {
  counts: ["bag", "tower"],
  brushes: [...PAVILION_ORDER, "erase"],

  brushTitle(brush) {
    return brush === "erase" ? "take a tile away" : `a ${PAVILION_NAMES[PAVILION_ORDER.indexOf(brush)]} tile`;
  },

  // Round 1's drafting with nothing anywhere and the token in the centre.
  blank(players) {
    const zero = Object.fromEntries(PAVILION_NAMES.map((name) => [name, 0]));
    return {game: "pavilion", players, round: 1, wild: PAVILION_NAMES[0], phase: "draft", turn: 1,
      starter: 1, token: null, passed: [], reward: 0, factories: Array(2 * players + 1).fill("-"),
      centre: "-", supply: "-", bag: Object.assign({}, zero), tower: Object.assign({}, zero),
      boards: Array.from({length: players}, () => this.blankBoard())};
  },

  blankBoard() { return {score: 5, stars: Array(7).fill("......"), hand: "-", kept: "-"}; },

  setPlayers(state, players) {
    const factories = state.factories.slice(0, 2 * players + 1);
    while (factories.length < 2 * players + 1) factories.push("-");
    const boards = state.boards.slice(0, players);
    while (boards.length < players) boards.push(this.blankBoard());
    Object.assign(state, {players, factories, boards, turn: Math.min(state.turn, players),
      starter: Math.min(state.starter, players), passed: state.passed.filter((p) => p <= players),
      token: state.token !== null && state.token > players ? null : state.token});
  },

  click(state, place, brush) {
    const board = state.boards[place.player - 1];
    if (place.area === "factory") state.factories[place.index] = editSet(state.factories[place.index], place.slot, brush);
    else if (["centre", "supply"].includes(place.area)) state[place.area] = editSet(state[place.area], place.slot, brush);
    else if (["hand", "kept"].includes(place.area)) board[place.area] = editSet(board[place.area], place.slot, brush);
    else if (place.area === "star") {
      // An outer star's space takes the star's own colour whatever the brush.
      const letter = brush === "erase" ? "." : place.star < 6 ? PAVILION_ORDER[place.star] : brush;
      const cells = [...board.stars[place.star]];
      cells[place.space] = letter;
      board.stars[place.star] = cells.join("");
    }
  },

  fields(state) {
    const players = Array.from({length: state.players}, (_, i) => i + 1);
    return [
      choiceField("players", "Players", [2, 3, 4], state.players, (s, v) => this.setPlayers(s, Number(v))),
      // The wild colour is the round's (docs/pavilion-notation.md).
      choiceField("round", "Round", [1, 2, 3, 4, 5, 6], state.round, (s, v) => {
        s.round = Number(v);
        s.wild = PAVILION_NAMES[s.round - 1];
      }),
      choiceField("phase", "Phase", PAVILION_PHASES, state.phase, (s, v) => { s.phase = v; }),
      choiceField("turn", "To move", players, state.turn, (s, v) => { s.turn = Number(v); }),
      choiceField("starter", "Starter", players, state.starter, (s, v) => { s.starter = Number(v); }),
      choiceField("token", "Token", ["centre", ...players], state.token === null ? "centre" : state.token,
        (s, v) => { s.token = v === "centre" ? null : Number(v); }),
      {name: "passed", label: "Passed", kind: "text", size: 6, value: state.passed.join(",") || "-",
        set(s, value) {
          const text = value.trim();
          if (text === "" || text === "-") { s.passed = []; return null; }
          if (!/^\d+(,\d+)*$/.test(text)) return `passed: players' numbers like 1,3, or -, not "${value}"`;
          s.passed = text.split(",").map(Number);
          return null;
        }},
      intField("reward", "Reward", state.reward, (s, v) => { s.reward = v; }),
      ...players.map((p) => intField(`score-${p}`, `Score P${p}`, state.boards[p - 1].score,
        (s, v) => { s.boards[p - 1].score = v; })),
      countsField("bag", "Bag P/G/O/Y/B/R", PAVILION_NAMES, PAVILION_ORDER)(state),
      countsField("tower", "Tower P/G/O/Y/B/R", PAVILION_NAMES, PAVILION_ORDER)(state),
    ];
  },

  // A named row of ``slots`` places (at least), the tiles first.
  row(svg, name, area, letters, slots, y, width) {
    const perLine = Math.floor((width - 100) / 32);
    const shown = Math.max(slots, letters.length + 1);
    const lines = Math.ceil(shown / perLine);
    label(svg, 40, y + 20, name, {"font-size": 14, "font-weight": "bold"});
    el("rect", {x: 80, y, width: width - 100, height: 8 + 32 * lines, rx: 8, fill: "#e8e2d4", stroke: "#999"}, svg);
    for (let slot = 0; slot < shown; slot++) {
      editTile(svg, 86 + (slot % perLine) * 32, y + 5 + Math.floor(slot / perLine) * 32, 30, letters[slot],
        PAVILION_TILES, {area, slot});
    }
    return y + 16 + 32 * lines;
  },

  draw(svg, state) {
    const {width, columns} = boardLayout(svg);
    const count = state.factories.length;
    const perRow = count > 7 ? 5 : count;
    const spacing = width / perRow;
    state.factories.forEach((factory, f) => {
      const cx = spacing * (f % perRow + 0.5), cy = 72 + Math.floor(f / perRow) * 110;
      el("circle", {cx, cy, r: 48, fill: "#e8e2d4", stroke: "#999"}, svg);
      label(svg, cx, cy - 56, `F${f + 1}`, {"font-size": 12, fill: "#555"});
      const letters = setLetters(factory);
      for (let slot = 0; slot < 4; slot++) {
        editTile(svg, cx - 32 + (slot % 2) * 34, cy - 32 + Math.floor(slot / 2) * 34, 30, letters[slot],
          PAVILION_TILES, {area: "factory", index: f, slot});
      }
    });
    let y = 72 + Math.ceil(count / perRow) * 110 - 40;
    y = this.row(svg, "Centre", "centre", setLetters(state.centre), 1, y, width);
    y = this.row(svg, "Supply", "supply", setLetters(state.supply), 10, y, width);
    const wild = PAVILION_ORDER[PAVILION_NAMES.indexOf(state.wild)];
    label(svg, width / 2, y + 4, `Round ${state.round} · wild ${wild} (${state.wild})`, {"font-size": 14});
    y += 22;
    state.boards.forEach((board, p) => {
      this.drawBoard(svg, state, board, p + 1, (p % columns) * 500 + 10, y + Math.floor(p / columns) * 420);
    });
    svg.setAttribute("viewBox", `0 0 ${width} ${y + Math.ceil(state.boards.length / columns) * 420}`);
  },

  drawBoard(svg, state, board, player, x0, y0) {
    el("rect", {x: x0, y: y0, width: 480, height: 410, rx: 10, fill: "#fff", stroke: "#bbb"}, svg);
    const marks = [state.token === player ? "token" : "", state.passed.includes(player) ? "passed" : ""].filter(Boolean);
    label(svg, x0 + 240, y0 + 16, `Player ${player} · ${board.score} points`
      + (marks.length ? ` (${marks.join(", ")})` : ""), {"font-weight": "bold"});
    const cx = x0 + 240, cy = y0 + 150;
    board.stars.forEach((cells, s) => {
      const centre = s === 6;
      const angle = (s * 60 - 90) * Math.PI / 180;
      const sx = centre ? cx : cx + 92 * Math.cos(angle), sy = centre ? cy : cy + 92 * Math.sin(angle);
      const letter = centre ? "C" : PAVILION_ORDER[s];
      label(svg, sx, sy, letter, {"font-size": 13, "font-weight": "bold", fill: "#666"});
      [...cells].forEach((cell, k) => {
        const a = (k * 60 - 90) * Math.PI / 180;
        const x = sx + 28 * Math.cos(a), y = sy + 28 * Math.sin(a);
        const colour = cell !== "." ? PAVILION_TILES[cell] : centre ? {fill: "#eee"} : PAVILION_TILES[letter];
        el("circle", {cx: x, cy: y, r: 13, fill: colour.fill, "fill-opacity": cell !== "." ? 1 : 0.25,
          stroke: "#555", class: "clickable", "data-edit": JSON.stringify({area: "star", player, star: s, space: k})}, svg);
        label(svg, x, y, cell !== "." ? cell : String(k + 1),
          {"font-size": 12, fill: cell !== "." ? colour.ink : "#333", "font-weight": cell !== "." ? "bold" : "normal"});
      });
    });
    const row = (name, area, letters, slots, y) => {
      label(svg, x0 + 36, y + 12, name, {"font-size": 13, "font-weight": "bold"});
      const shown = Math.max(slots, letters.length + 1);
      for (let slot = 0; slot < shown; slot++) {
        editTile(svg, x0 + 70 + (slot % 15) * 26, y + Math.floor(slot / 15) * 26, 24, letters[slot], PAVILION_TILES,
          {area, player, slot});
      }
    };
    row("Hand", "hand", setLetters(board.hand), 1, y0 + 290);
    row("Kept", "kept", setLetters(board.kept), 4, y0 + 370);
  },
};

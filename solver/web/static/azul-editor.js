// The Azul position editor (editor.js): factories, the centre and its marker, each
// player's pattern lines, wall and floor by clicking; the header, scores, bag and lid in
// fields. The position is the notation's JSON form (docs/azul-notation.md).
"use strict";
const AZUL_COUNT_NAMES = ["blue", "yellow", "red", "black", "white"];

function azulLine(text) { return [...(text || "")].filter((c) => c !== "." && c !== "-"); }

const AzulEditor = {
  counts: ["bag", "lid"],
  brushes: ["B", "Y", "R", "K", "W", "1", "erase"],

  brushTitle(brush) {
    if (brush === "erase") return "take a tile away";
    if (brush === "1") return "the first-player marker (centre or a floor)";
    return `a ${AZUL_NAMES[AZUL_ORDER.indexOf(brush)]} tile`;
  },

  // Round 1 with the marker in the centre and nothing else anywhere: the player puts tiles.
  blank(players) {
    const zero = Object.fromEntries(AZUL_COUNT_NAMES.map((name) => [name, 0]));
    return {game: "azul", players, wall: "colour", round: 1, phase: "draft", turn: 1, starter: 1,
      stalled: 0, factories: Array(2 * players + 1).fill("-"), centre: "1",
      bag: Object.assign({}, zero), lid: Object.assign({}, zero),
      boards: Array.from({length: players}, () => this.blankBoard())};
  },

  blankBoard() {
    return {score: 0, wall: Array(5).fill("....."), lines: [1, 2, 3, 4, 5].map((n) => ".".repeat(n)), floor: "-"};
  },

  setPlayers(state, players) {
    const factories = state.factories.slice(0, 2 * players + 1);
    while (factories.length < 2 * players + 1) factories.push("-");
    const boards = state.boards.slice(0, players);
    while (boards.length < players) boards.push(this.blankBoard());
    Object.assign(state, {players, factories, boards,
      turn: Math.min(state.turn, players), starter: Math.min(state.starter, players)});
  },

  // What a click on ``place`` does with ``brush``.
  click(state, place, brush) {
    const board = state.boards[place.player - 1];
    if (place.area === "factory") state.factories[place.index] = editSet(state.factories[place.index], place.slot, brush);
    else if (place.area === "centre") state.centre = editSet(state.centre, place.slot, brush);
    else if (place.area === "floor") board.floor = editSet(board.floor, place.slot, brush);
    else if (place.area === "line") {
      // Cell k counts from the wall: a tile there fills the line up to it in the brush's
      // colour; the eraser leaves the k - 1 tiles nearer the wall.
      if (brush === "1") return;
      const size = place.line;
      const held = azulLine(board.lines[size - 1]);
      const colour = brush === "erase" ? held[0] : brush;
      const count = brush === "erase" ? Math.min(held.length, place.cell - 1) : place.cell;
      board.lines[size - 1] = (count ? colour.repeat(count) : "") + ".".repeat(size - count);
    } else if (place.area === "wall") {
      if (brush === "1") return;
      // The colour wall takes the colour printed on the cell whatever the brush.
      const printed = AZUL_ORDER[(place.col - place.row + 5) % 5];
      const letter = brush === "erase" ? "." : state.wall === "colour" ? printed : brush;
      const row = [...board.wall[place.row]];
      row[place.col] = letter;
      board.wall[place.row] = row.join("");
    }
  },

  fields(state) {
    const players = Array.from({length: state.players}, (_, i) => i + 1);
    return [
      choiceField("players", "Players", [2, 3, 4], state.players, (s, v) => this.setPlayers(s, Number(v))),
      choiceField("wall", "Wall", ["colour", "gray"], state.wall, (s, v) => { s.wall = v; }),
      intField("round", "Round", state.round, (s, v) => { s.round = v; }),
      choiceField("phase", "Phase", ["refill", "draft", "tiling", "over"], state.phase, (s, v) => { s.phase = v; }),
      choiceField("turn", "To move", players, state.turn, (s, v) => { s.turn = Number(v); }),
      choiceField("starter", "Starter", players, state.starter, (s, v) => { s.starter = Number(v); }),
      intField("stalled", "Stalled rounds", state.stalled, (s, v) => { s.stalled = v; }),
      ...players.map((p) => intField(`score-${p}`, `Score P${p}`, state.boards[p - 1].score,
        (s, v) => { s.boards[p - 1].score = v; })),
      countsField("bag", "Bag B/Y/R/K/W", AZUL_COUNT_NAMES, AZUL_ORDER)(state),
      countsField("lid", "Lid B/Y/R/K/W", AZUL_COUNT_NAMES, AZUL_ORDER)(state),
    ];
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
          AZUL_TILES, {area: "factory", index: f, slot});
      }
    });
    let y = 72 + Math.ceil(count / perRow) * 110 - 40;
    const centre = setLetters(state.centre);
    const perLine = Math.floor((width - 100) / 32);
    const lines = Math.ceil((centre.length + 1) / perLine);
    label(svg, 40, y + 20, "Centre", {"font-size": 14, "font-weight": "bold"});
    el("rect", {x: 80, y, width: width - 100, height: 8 + 32 * lines, rx: 8, fill: "#e8e2d4", stroke: "#999"}, svg);
    for (let slot = 0; slot <= centre.length; slot++) {
      editTile(svg, 86 + (slot % perLine) * 32, y + 5 + Math.floor(slot / perLine) * 32, 30, centre[slot],
        AZUL_TILES, {area: "centre", slot});
    }
    y += 20 + 32 * lines;
    state.boards.forEach((board, p) => {
      this.drawBoard(svg, state, board, p + 1, (p % columns) * 500 + 10, y + Math.floor(p / columns) * 300);
    });
    svg.setAttribute("viewBox", `0 0 ${width} ${y + Math.ceil(state.boards.length / columns) * 300}`);
  },

  drawBoard(svg, state, board, player, x0, y0) {
    el("rect", {x: x0, y: y0, width: 480, height: 288, rx: 10, fill: "#fff", stroke: "#bbb"}, svg);
    label(svg, x0 + 240, y0 + 16, `Player ${player} · ${board.score} points`, {"font-weight": "bold"});
    const size = 28, step = 32, lineRight = x0 + 200, wallLeft = x0 + 220, top = y0 + 34;
    board.lines.forEach((line, i) => {
      const rowY = top + i * step;
      const held = azulLine(line);
      for (let cell = 1; cell <= i + 1; cell++) {
        editTile(svg, lineRight - cell * step, rowY, size, held[cell - 1], AZUL_TILES,
          {area: "line", player, line: i + 1, cell});
      }
      [...board.wall[i]].forEach((letter, c) => {
        const place = {class: "clickable", "data-edit": JSON.stringify({area: "wall", player, row: i, col: c})};
        const x = wallLeft + c * step;
        if (letter !== ".") tile(svg, x, rowY, size, letter === "x" ? AZUL_ORDER[(c - i + 5) % 5] : letter, AZUL_TILES, place);
        else if (state.wall === "colour") {
          const printed = AZUL_ORDER[(c - i + 5) % 5];
          emptySlot(svg, x, rowY, size, Object.assign({fill: AZUL_TILES[printed].fill, "fill-opacity": 0.25}, place),
            printed.toLowerCase(), "#555");
        } else emptySlot(svg, x, rowY, size, place);
      });
    });
    const floorY = top + 5 * step + 16;
    label(svg, x0 + 30, floorY + 14, "Floor", {"font-size": 13, "font-weight": "bold"});
    const floor = setLetters(board.floor);
    for (let slot = 0; slot < Math.max(8, floor.length + 1); slot++) {
      const x = x0 + 60 + slot * step;
      editTile(svg, x, floorY, size, floor[slot], AZUL_TILES, {area: "floor", player, slot});
      if (slot < 7) label(svg, x + size / 2, floorY + size + 10, String(FLOOR_PENALTIES[slot]), {"font-size": 11, fill: "#777"});
    }
  },
};

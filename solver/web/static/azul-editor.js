// The Azul position editor (editor.js): factories, the centre and its marker, each
// player's pattern lines, wall and floor by tapping (or dragging a tile there); the
// header, scores, bag and lid in fields. The position is the notation's JSON form
// (docs/azul-notation.md).
"use strict";
const AZUL_COUNT_NAMES = ["blue", "yellow", "red", "black", "white"];

function azulLine(text) { return [...(text || "")].filter((c) => c !== "." && c !== "-"); }

const AzulEditor = {
  inferable: ["bag", "lid"],
  boardInfers: ["bag"],
  brushes: ["B", "Y", "R", "K", "W", "1", "erase"],
  factoryName: "F",
  hint: "Tap a tile, then its places, or drag it there. The bag and lid are worked out.",
  hints: {
    factory: "Factory: a tile fills the slot tapped and the empty ones before it.",
    centre: "Centre: tiles and the first-player marker 1, filled up to the slot tapped.",
    line: "Pattern line: a tile fills it from the wall up to the cell tapped.",
    wall: "Wall: a tap tiles the cell (the colour wall takes its printed colour).",
    floor: "Floor: tiles and the marker 1, filled up to the slot tapped.",
  },

  brushTitle(brush) {
    if (brush === "erase") return "the eraser";
    if (brush === "1") return "the first-player marker";
    return `a ${AZUL_NAMES[AZUL_ORDER.indexOf(brush)]} tile`;
  },

  // How the palette shows a brush: the board's own tile.
  piece(brush) {
    if (brush === "erase") return {shape: "eraser", fill: "#fff", ink: "#222", text: "✕"};
    return {shape: "tile", fill: AZUL_TILES[brush].fill, ink: AZUL_TILES[brush].ink, text: brush};
  },

  // The fields left to inference are null at the top of the JSON form (editor.js).
  leaveOut(position, name) { leaveOutField(position, name); },
  leftOut(position, name) { return leftOutField(position, name); },
  adopt(target, source, name) { adoptField(target, source, name); },

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

  // What a tap on ``place`` does with ``brush``.
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
      intField("round", "Round", state.round, (s, v) => { s.round = v; }),
      choiceField("turn", "To move", players, state.turn, (s, v) => { s.turn = Number(v); }),
      ...players.map((p) => intField(`score-${p}`, `Score P${p}`, state.boards[p - 1].score,
        (s, v) => { s.boards[p - 1].score = v; })),
      choiceField("wall", "Wall", ["colour", "gray"], state.wall, (s, v) => { s.wall = v; }),
      Object.assign(choiceField("phase", "Phase", ["refill", "draft", "tiling", "over"], state.phase, (s, v) => { s.phase = v; }), {more: true}),
      choiceField("starter", "Starter", players, state.starter, (s, v) => { s.starter = Number(v); }),
      Object.assign(intField("stalled", "Stalled rounds", state.stalled, (s, v) => { s.stalled = v; }), {more: true}),
      countsField("bag", "Bag B/Y/R/K/W", AZUL_COUNT_NAMES, AZUL_ORDER)(state),
      countsField("lid", "Lid B/Y/R/K/W", AZUL_COUNT_NAMES, AZUL_ORDER)(state),
    ];
  },

  draw(svg, state) {
    const layout = editorLayout(svg);
    let y = factoryRows(svg, layout, state.factories, AZUL_TILES, this);
    y = tileSetRow(svg, layout, "Centre", setLetters(state.centre), {area: "centre"}, this, AZUL_TILES, y);
    const height = layout.narrow ? 80 + 12 * layout.step : 288;
    const width = layout.narrow ? layout.width - 8 : 480;
    state.boards.forEach((board, p) => {
      this.drawBoard(svg, state, board, p + 1, layout, (p % layout.columns) * 500 + (layout.narrow ? 4 : 10),
        y + Math.floor(p / layout.columns) * (height + 12), width, height);
    });
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${y + Math.ceil(state.boards.length / layout.columns) * (height + 12)}`);
  },

  // A player's board: the pattern lines and the wall side by side (one above the other on
  // a phone), the floor under them.
  drawBoard(svg, state, board, player, layout, x0, y0, width, height) {
    el("rect", {x: x0, y: y0, width, height, rx: 10, fill: "#fff", stroke: "#bbb"}, svg);
    label(svg, x0 + width / 2, y0 + 16, `Player ${player} · ${board.score} points`, {"font-weight": "bold"});
    const {tile: size, step} = layout;
    const top = y0 + 34;
    const lineRight = layout.narrow ? x0 + width / 2 + 2.5 * step : x0 + 200;
    const wallLeft = layout.narrow ? x0 + width / 2 - 2.5 * step : x0 + 220;
    const wallTop = layout.narrow ? top + 5 * step + 12 : top;
    board.lines.forEach((line, i) => {
      const held = azulLine(line);
      for (let cell = 1; cell <= i + 1; cell++) {
        editTile(svg, lineRight - cell * step, top + i * step, size, held[cell - 1], AZUL_TILES,
          {area: "line", player, line: i + 1, cell}, this);
      }
      [...board.wall[i]].forEach((letter, c) => {
        const place = {class: "clickable", "data-edit": JSON.stringify({area: "wall", player, row: i, col: c})};
        const x = wallLeft + c * step, rowY = wallTop + i * step;
        let drawn;
        if (letter !== ".") drawn = tile(svg, x, rowY, size, letter === "x" ? AZUL_ORDER[(c - i + 5) % 5] : letter, AZUL_TILES, place);
        else if (state.wall === "colour") {
          const printed = AZUL_ORDER[(c - i + 5) % 5];
          drawn = emptySlot(svg, x, rowY, size, Object.assign({fill: AZUL_TILES[printed].fill, "fill-opacity": 0.25}, place),
            printed.toLowerCase(), "#555");
        } else drawn = emptySlot(svg, x, rowY, size, place);
        hintTitle(drawn, this, "wall");
      });
    });
    const floorY = (layout.narrow ? wallTop + 5 * step : top + 5 * step) + 16;
    const floorLeft = layout.narrow ? x0 + 4 : x0 + 60;
    if (!layout.narrow) label(svg, x0 + 30, floorY + size / 2, "Floor", {"font-size": 13, "font-weight": "bold"});
    else label(svg, x0 + 6, floorY - 6, "Floor", {"font-size": 13, "font-weight": "bold", "text-anchor": "start"});
    // The floor's seven penalty slots and the marker's; on a phone the eighth wraps.
    const floor = setLetters(board.floor);
    const perRow = layout.narrow ? 7 : 12;
    for (let slot = 0; slot < Math.max(8, floor.length + 1); slot++) {
      const x = floorLeft + (slot % perRow) * step, rowY = floorY + (layout.narrow ? 4 : 0) + Math.floor(slot / perRow) * (step + 14);
      editTile(svg, x, rowY, size, floor[slot], AZUL_TILES, {area: "floor", player, slot}, this);
      if (slot < 7) label(svg, x + size / 2, rowY + size + (layout.narrow ? 8 : 10), String(FLOOR_PENALTIES[slot]), {"font-size": 11, fill: "#777"});
    }
  },
};

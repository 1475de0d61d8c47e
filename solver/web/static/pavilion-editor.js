// The Summer Pavilion position editor (editor.js): displays, the centre, the supply, each
// player's stars, hand and kept tiles by tapping (or dragging a tile there); the header
// (round and its wild colour, phase, token, passed players), scores, bag and tower in
// fields. The position is the notation's JSON form (docs/pavilion-notation.md).
"use strict";
const PAVILION_PHASES = ["refill", "draft", "place", "bonus", "keep", "resupply", "over"];

const PavilionEditor = {
  inferable: ["bag", "tower"],
  boardInfers: ["bag"],
  brushes: [...PAVILION_ORDER, "erase"],
  factoryName: "D",
  hint: "Tap a tile, then its places, or drag it there. The bag and tower are worked out.",
  hints: {
    factory: "Display: a tile fills the slot tapped and the empty ones before it.",
    centre: "Centre: a tile fills up to the slot tapped (the token: the Token field).",
    supply: "Supply: a tile fills up to the slot tapped (ten when full).",
    star: "Star: a tap tiles the space (an outer star takes its own colour).",
    hand: "Hand: the tiles the player holds, filled up to the slot tapped.",
    kept: "Kept: the tiles kept on the board's corners (at most 4).",
  },

  brushTitle(brush) {
    return brush === "erase" ? "the eraser" : `a ${PAVILION_NAMES[PAVILION_ORDER.indexOf(brush)]} tile`;
  },

  piece(brush) {
    if (brush === "erase") return {shape: "eraser", fill: "#fff", ink: "#222", text: "✕"};
    return {shape: "tile", fill: PAVILION_TILES[brush].fill, ink: PAVILION_TILES[brush].ink, text: brush};
  },

  // The fields left to inference are null at the top of the JSON form (editor.js).
  leaveOut(position, name) { leaveOutField(position, name); },
  leftOut(position, name) { return leftOutField(position, name); },
  adopt(target, source, name) { adoptField(target, source, name); },

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
    const more = (field) => Object.assign(field, {more: true});
    return [
      choiceField("players", "Players", [2, 3, 4], state.players, (s, v) => this.setPlayers(s, Number(v))),
      // The wild colour is the round's (docs/pavilion-notation.md).
      choiceField("round", "Round", [1, 2, 3, 4, 5, 6], state.round, (s, v) => {
        s.round = Number(v);
        s.wild = PAVILION_NAMES[s.round - 1];
      }),
      choiceField("phase", "Phase", PAVILION_PHASES, state.phase, (s, v) => { s.phase = v; }),
      choiceField("turn", "To move", players, state.turn, (s, v) => { s.turn = Number(v); }),
      choiceField("token", "Token", ["centre", ...players], state.token === null ? "centre" : state.token,
        (s, v) => { s.token = v === "centre" ? null : Number(v); }),
      ...players.map((p) => intField(`score-${p}`, `Score P${p}`, state.boards[p - 1].score,
        (s, v) => { s.boards[p - 1].score = v; })),
      choiceField("starter", "Starter", players, state.starter, (s, v) => { s.starter = Number(v); }),
      more({name: "passed", label: "Passed", kind: "text", size: 6, value: state.passed.join(",") || "-",
        set(s, value) {
          const text = value.trim();
          if (text === "" || text === "-") { s.passed = []; return null; }
          if (!/^\d+(,\d+)*$/.test(text)) return `passed: players' numbers like 1,3, or -, not "${value}"`;
          s.passed = text.split(",").map(Number);
          return null;
        }}),
      more(intField("reward", "Reward", state.reward, (s, v) => { s.reward = v; })),
      countsField("bag", "Bag P/G/O/Y/B/R", PAVILION_NAMES, PAVILION_ORDER)(state),
      countsField("tower", "Tower P/G/O/Y/B/R", PAVILION_NAMES, PAVILION_ORDER)(state),
    ];
  },

  draw(svg, state) {
    const layout = editorLayout(svg);
    let y = factoryRows(svg, layout, state.factories, PAVILION_TILES, this);
    y = tileSetRow(svg, layout, "Centre", setLetters(state.centre), {area: "centre"}, this, PAVILION_TILES, y);
    y = tileSetRow(svg, layout, "Supply", setLetters(state.supply), {area: "supply"}, this, PAVILION_TILES, y, {least: 10});
    const wild = PAVILION_ORDER[PAVILION_NAMES.indexOf(state.wild)];
    label(svg, layout.width / 2, y + 4, `Round ${state.round} · wild ${wild} (${state.wild})`, {"font-size": 14});
    y += 22;
    const height = layout.narrow ? 650 : 440;
    const width = layout.narrow ? layout.width - 8 : 480;
    state.boards.forEach((board, p) => {
      this.drawBoard(svg, state, board, p + 1, layout, (p % layout.columns) * 500 + (layout.narrow ? 4 : 10),
        y + Math.floor(p / layout.columns) * (height + 10), width, height);
    });
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${y + Math.ceil(state.boards.length / layout.columns) * (height + 10)}`);
  },

  // A player's seven stars (a flower: the centre star and six around it), hand and kept
  // tiles. On a phone the spaces are 44 units apart, each a 42-unit target (a unit is
  // about a pixel there).
  drawBoard(svg, state, board, player, layout, x0, y0, width, height) {
    el("rect", {x: x0, y: y0, width, height, rx: 10, fill: "#fff", stroke: "#bbb"}, svg);
    const marks = [state.token === player ? "token" : "", state.passed.includes(player) ? "passed" : ""].filter(Boolean);
    label(svg, x0 + width / 2, y0 + 16, `Player ${player} · ${board.score} points`
      + (marks.length ? ` (${marks.join(", ")})` : ""), {"font-weight": "bold"});
    const ring = layout.narrow ? 44 : 28, radius = layout.narrow ? 21 : 13, apart = layout.narrow ? 130 : 92;
    const cx = x0 + width / 2, cy = y0 + 34 + apart + ring + radius;
    board.stars.forEach((cells, s) => {
      const centre = s === 6;
      const angle = (s * 60 - 90) * Math.PI / 180;
      const sx = centre ? cx : cx + apart * Math.cos(angle), sy = centre ? cy : cy + apart * Math.sin(angle);
      const letter = centre ? "C" : PAVILION_ORDER[s];
      label(svg, sx, sy, letter, {"font-size": 13, "font-weight": "bold", fill: "#666"});
      [...cells].forEach((cell, k) => {
        const a = (k * 60 - 90) * Math.PI / 180;
        const x = sx + ring * Math.cos(a), y = sy + ring * Math.sin(a);
        const colour = cell !== "." ? PAVILION_TILES[cell] : centre ? {fill: "#eee"} : PAVILION_TILES[letter];
        hintTitle(el("circle", {cx: x, cy: y, r: radius, fill: colour.fill, "fill-opacity": cell !== "." ? 1 : 0.25,
          stroke: "#555", class: "clickable", "data-edit": JSON.stringify({area: "star", player, star: s, space: k})}, svg), this, "star");
        label(svg, x, y, cell !== "." ? cell : String(k + 1),
          {"font-size": 12, fill: cell !== "." ? colour.ink : "#333", "font-weight": cell !== "." ? "bold" : "normal"});
      });
    });
    const {tile: size, step} = layout;
    const left = layout.narrow ? x0 + 8 : x0 + 70;
    const perRow = Math.floor((x0 + width - left - 4) / step);
    const row = (name, area, letters, slots, y) => {
      if (layout.narrow) label(svg, left, y - 10, name, {"font-size": 13, "font-weight": "bold", "text-anchor": "start"});
      else label(svg, x0 + 36, y + size / 2, name, {"font-size": 13, "font-weight": "bold"});
      const shown = Math.max(slots, letters.length + 1);
      for (let slot = 0; slot < shown; slot++) {
        editTile(svg, left + (slot % perRow) * step, y + Math.floor(slot / perRow) * step, size, letters[slot],
          PAVILION_TILES, {area, player, slot}, this);
      }
    };
    const rowsTop = cy + apart + ring + radius + (layout.narrow ? 30 : 14);
    row("Hand", "hand", setLetters(board.hand), layout.narrow ? 7 : 12, rowsTop);
    row("Kept", "kept", setLetters(board.kept), 4, rowsTop + (layout.narrow ? 2 * step + 30 : 2 * step + 10));
  },
};

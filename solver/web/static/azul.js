// Azul drawn in SVG from the position's JSON (docs/azul-notation.md): factories, centre,
// bag and lid; each player's pattern lines, wall (colour or gray), floor and score.
"use strict";
const AZUL_TILES = {
  B: {fill: OKABE.blue, ink: "#fff"}, Y: {fill: OKABE.yellow, ink: "#000"},
  R: {fill: OKABE.vermillion, ink: "#fff"}, K: {fill: OKABE.black, ink: "#fff"},
  W: {fill: OKABE.white, ink: "#000"}, "1": {fill: "#bfbfbf", ink: "#000"},
};
const AZUL_ORDER = "BYRKW";
const AZUL_NAMES = ["blue", "yellow", "red", "black", "white"];
const FLOOR_PENALTIES = [-1, -1, -2, -2, -2, -3, -3];

const AzulBoard = {
  draw(svg, doc) {
    const obj = doc.json;
    const {width, columns} = boardLayout(svg);
    const count = obj.factories.length;
    const perRow = factoryRow(svg, obj.factories, AZUL_TILES, width);
    let y = tileRow(svg, "Centre", obj.centre, "C", 72 + Math.ceil(count / perRow) * 110 - 40, width, AZUL_TILES);
    label(svg, width / 2, y + 4, `${countsText("Bag", AZUL_ORDER, AZUL_NAMES, obj.bag)}    ·    `
      + countsText("Lid", AZUL_ORDER, AZUL_NAMES, obj.lid), {"font-size": 14});
    y += 22;
    obj.boards.forEach((board, p) => {
      this.board(svg, doc, board, p + 1, (p % columns) * 500 + 10, y + Math.floor(p / columns) * 300);
    });
    svg.setAttribute("viewBox", `0 0 ${width} ${y + Math.ceil(obj.boards.length / columns) * 300}`);
  },

  board(svg, doc, board, player, x0, y0) {
    const obj = doc.json;
    const acting = doc.to_move === player && !doc.is_view;
    el("rect", {x: x0, y: y0, width: 480, height: 288, rx: 10, fill: acting ? "#fff6d6" : "#fff",
      stroke: acting ? "#d4a000" : "#bbb", "stroke-width": acting ? 3 : 1}, svg);
    label(svg, x0 + 240, y0 + 16, `${acting ? "▶ " : ""}Player ${player} · ${board.score} points`,
      {"font-weight": "bold", class: acting ? "acting" : ""});
    const size = 28, step = 32, lineRight = x0 + 200, wallLeft = x0 + 220, top = y0 + 34;
    const drafting = acting && obj.phase === "draft";
    const tiling = acting && obj.phase === "tiling";
    board.lines.forEach((line, i) => {
      const rowY = top + i * step;
      const filled = line.replace(/\./g, "");
      if (drafting) {
        el("rect", {x: lineRight - (i + 1) * step - 2, y: rowY - 2, width: (i + 1) * step + 2,
          height: size + 4, rx: 4, fill: "transparent", stroke: "none",
          class: "clickable", "data-pick": JSON.stringify({destination: String(i + 1)})}, svg);
      }
      for (let s = 0; s <= i; s++) {
        const x = lineRight - (s + 1) * step;
        const letter = filled[s];     // tiles sit at the right, by the wall
        if (letter) tile(svg, x, rowY, size, letter, AZUL_TILES, {"pointer-events": "none"});
        else emptySlot(svg, x, rowY, size, {"pointer-events": "none"});
      }
      [...board.wall[i]].forEach((cell, c) => {
        const x = wallLeft + c * step;
        const pick = tiling ? {class: "clickable", "data-pick": JSON.stringify({column: c + 1})} : {};
        if (cell !== ".") tile(svg, x, rowY, size, cell, AZUL_TILES, pick);
        else if (obj.wall === "colour") {
          const printed = AZUL_ORDER[(c - i + 5) % 5];
          emptySlot(svg, x, rowY, size, Object.assign({fill: AZUL_TILES[printed].fill, "fill-opacity": 0.25}, pick),
            printed.toLowerCase(), "#555");
        } else emptySlot(svg, x, rowY, size, pick);
      });
    });
    // The floor: seven slots and their penalties; the marker may lie past the last.
    const floorY = top + 5 * step + 16;
    label(svg, x0 + 30, floorY + 14, "Floor", {"font-size": 13, "font-weight": "bold"});
    const floor = board.floor === "-" ? "" : board.floor;
    if (drafting) {
      el("rect", {x: x0 + 58, y: floorY - 2, width: 8 * step + 4, height: size + 4, rx: 4,
        fill: "transparent", stroke: "none", class: "clickable",
        "data-pick": JSON.stringify({destination: "floor"})}, svg);
    }
    for (let s = 0; s < Math.max(7, floor.length); s++) {
      const x = x0 + 60 + s * step;
      if (floor[s]) tile(svg, x, floorY, size, floor[s], AZUL_TILES, {"pointer-events": "none"});
      else emptySlot(svg, x, floorY, size, {"pointer-events": "none"});
      if (s < 7) label(svg, x + size / 2, floorY + size + 10, String(FLOOR_PENALTIES[s]), {"font-size": 11, fill: "#777"});
    }
  },
};

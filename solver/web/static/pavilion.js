// Summer Pavilion drawn in SVG from the position's JSON (docs/pavilion-notation.md):
// displays, centre, supply, bag and tower; each player's seven stars, hand and corners.
"use strict";
const PAVILION_TILES = {
  P: {fill: OKABE.purple, ink: "#000"}, G: {fill: OKABE.green, ink: "#fff"},
  O: {fill: OKABE.orange, ink: "#000"}, Y: {fill: OKABE.yellow, ink: "#000"},
  B: {fill: OKABE.blue, ink: "#fff"}, R: {fill: OKABE.vermillion, ink: "#fff"},
};
const PAVILION_ORDER = "PGOYBR";
const PAVILION_NAMES = ["purple", "green", "orange", "yellow", "blue", "red"];

const PavilionBoard = {
  // A click on a tile of the wild colour also means taking it as the wild of an all-wild source.
  alternatives(pick, doc) {
    const wild = PAVILION_ORDER[PAVILION_NAMES.indexOf(doc.json.wild)];
    return "source" in pick && pick.colour === wild ? [pick, {source: pick.source, colour: "wild"}] : [pick];
  },

  draw(svg, doc) {
    const obj = doc.json;
    const {width, columns} = boardLayout(svg);
    const perRow = factoryRow(svg, obj.factories, PAVILION_TILES, width);
    let y = 72 + Math.ceil(obj.factories.length / perRow) * 110 - 40;
    y = tileRow(svg, "Centre", obj.centre, "C", y, width, PAVILION_TILES,
      obj.token === null ? "start-player token here" : "");
    y = tileRow(svg, "Supply", obj.supply, null, y, width, PAVILION_TILES);
    const wild = PAVILION_ORDER[PAVILION_NAMES.indexOf(obj.wild)];
    label(svg, width / 2, y + 2, `Round ${obj.round} · wild ${wild} (${obj.wild})`, {"font-size": 14});
    label(svg, width / 2, y + 22, `${countsText("Bag", PAVILION_ORDER, PAVILION_NAMES, obj.bag)} · `
      + countsText("Tower", PAVILION_ORDER, PAVILION_NAMES, obj.tower), {"font-size": 14});
    y += 40;
    obj.boards.forEach((board, p) => {
      this.board(svg, doc, board, p + 1, (p % columns) * 500 + 10, y + Math.floor(p / columns) * 400);
    });
    svg.setAttribute("viewBox", `0 0 ${width} ${y + Math.ceil(obj.boards.length / columns) * 400}`);
  },

  board(svg, doc, board, player, x0, y0) {
    const obj = doc.json;
    const acting = doc.to_move === player && !doc.is_view;
    el("rect", {x: x0, y: y0, width: 480, height: 390, rx: 10, fill: acting ? "#fff6d6" : "#fff",
      stroke: acting ? "#d4a000" : "#bbb", "stroke-width": acting ? 3 : 1}, svg);
    const marks = [obj.token === player ? "token" : "", obj.passed.includes(player) ? "passed" : ""].filter(Boolean);
    label(svg, x0 + 240, y0 + 16, `${acting ? "▶ " : ""}Player ${player} · ${board.score} points`
      + (marks.length ? ` (${marks.join(", ")})` : ""), {"font-weight": "bold"});
    const cx = x0 + 240, cy = y0 + 150;
    const placing = acting && obj.phase === "place";
    board.stars.forEach((cells, s) => {
      const centre = s === 6;
      const angle = (s * 60 - 90) * Math.PI / 180;
      const sx = centre ? cx : cx + 92 * Math.cos(angle), sy = centre ? cy : cy + 92 * Math.sin(angle);
      const letter = centre ? "C" : PAVILION_ORDER[s];
      label(svg, sx, sy, letter, {"font-size": 13, "font-weight": "bold", fill: "#666"});
      [...cells].forEach((cell, k) => {
        const a = (k * 60 - 90) * Math.PI / 180;
        const x = sx + 28 * Math.cos(a), y = sy + 28 * Math.sin(a);
        const pick = placing ? {class: "clickable", "data-pick": JSON.stringify({star: letter, space: k + 1})} : {};
        const colour = cell !== "." ? PAVILION_TILES[cell] : centre ? {fill: "#eee"} : PAVILION_TILES[letter];
        el("circle", Object.assign({cx: x, cy: y, r: 13, fill: colour.fill,
          "fill-opacity": cell !== "." ? 1 : 0.25, stroke: "#555"}, pick), svg);
        label(svg, x, y, cell !== "." ? cell : String(k + 1),
          {"font-size": 12, fill: cell !== "." ? colour.ink : "#333", "font-weight": cell !== "." ? "bold" : "normal"});
      });
    });
    const hand = (name, letters, y) => {
      label(svg, x0 + 40, y + 14, name, {"font-size": 13, "font-weight": "bold"});
      [...tileSet(letters)].forEach((letter, i) => tile(svg, x0 + 75 + i * 26, y, 24, letter, PAVILION_TILES));
    };
    hand("Hand", board.hand, y0 + 300);
    hand("Kept", board.kept, y0 + 340);
  },
};

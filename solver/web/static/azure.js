// Azure drawn in SVG from the realm the server reads for the layout (cells, mountains,
// stones, beasts) and the position's JSON (cards, players, the cosmos track). The board
// shows a player's view when one is chosen: the cards that player cannot name are "?".
"use strict";
const AZURE_DOMAINS = {
  A: {fill: OKABE.sky, ink: "#000"}, W: {fill: "#eeeeee", ink: "#000"},
  V: {fill: OKABE.vermillion, ink: "#fff"}, B: {fill: "#4a4a4a", ink: "#fff"},
  "?": {fill: "#fff", ink: "#000"},
};
const AZURE_ORDER = "AWVB";
const AZURE_NAMES = ["azure", "white", "vermillion", "black"];
const AZURE_PLAYERS = {1: OKABE.orange, 2: OKABE.purple};
const BEASTS = {dragon: "Dragon", tiger: "Tiger", bird: "Bird", tortoise: "Tortoise"};

const AzureBoard = {
  draw(svg, doc) {
    const obj = doc.json;
    const realm = doc.realm;
    const size = 72, left = 30, top = 30;
    const cellsWithMoves = new Set(doc.moves.filter((m) => m.cell).map((m) => m.cell));
    for (let i = 0; i < realm.size; i++) {
      label(svg, left + i * size + size / 2, top - 12, "abcdefgh"[i], {"font-size": 13, fill: "#666"});
      label(svg, left - 14, top + i * size + size / 2, String(i + 1), {"font-size": 13, fill: "#666"});
    }
    for (const cell of realm.cells) {
      const x = left + cell.col * size, y = top + cell.row * size;
      const colour = AZURE_DOMAINS[cell.domain];
      const pick = cellsWithMoves.has(cell.cell) ? {class: "clickable", "data-pick": JSON.stringify({cell: cell.cell})} : {};
      el("rect", Object.assign({x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 5,
        fill: colour.fill, stroke: "#333"}, pick), svg);
      const ink = {fill: colour.ink};
      if (cell.kind === "mountain") {
        label(svg, x + size / 2, y + 16, `▲ ${BEASTS[cell.beast]}`, Object.assign({"font-size": 12}, ink));
        label(svg, x + size / 2, y + 36, cell.holder ? `held by P${cell.holder}` : "free", Object.assign({"font-size": 11}, ink));
        if (cell.stone) this.stone(svg, x + size / 2, y + 56, cell.stone, false);
        continue;
      }
      const symbols = (cell.qi ? cell.qi_colour.repeat(cell.qi) : "") + (cell.wisdom ? ` +${cell.wisdom}` : "")
        + "☼".repeat(cell.cosmos) + (cell.serpent ? " ~" : "");
      label(svg, x + size / 2, y + 15, symbols, Object.assign({"font-size": 13, "font-weight": "bold"}, ink));
      label(svg, x + 10, y + size - 11, cell.domain, Object.assign({"font-size": 11}, ink));
      if (cell.stone) this.stone(svg, x + size / 2, y + 45, cell.stone.player, cell.stone.gifted);
      else label(svg, x + size / 2, y + 45, `(${cell.cost})`, Object.assign({"font-size": 13}, ink));
    }
    let y = top + realm.size * size + 16;
    for (const line of ["AA two azure cards · +2 two points · ☼ a cosmos step · ~ serpent",
      "(3) the cost in the domain's cards · ● a stone, ◆ a gifted stone"]) {
      label(svg, left, y, line, {"text-anchor": "start", "font-size": 11, fill: "#555"});
      y += 15;
    }
    y += 5;
    if (realm.track) y = this.track(svg, obj, realm.track, left, y);
    // Cards and players, right of the realm (below it on a narrow screen).
    const narrow = boardLayout(svg).columns === 1;
    const x0 = narrow ? left : left + realm.size * size + 30;
    let py = narrow ? y + 10 : top;
    const module = [obj.gifted !== "none" ? `Gifted: ${obj.gifted}` : "",
      obj.cosmos ? `Cosmos${realm.track.standin ? " (stand-in boards)" : ""}` : ""]
      .filter(Boolean).join(" · ");
    if (module) {
      label(svg, x0, py, module, {"text-anchor": "start", "font-size": 14, "font-weight": "bold"});
      py += 24;
    }
    label(svg, x0, py, `Face-up decks ${AZURE_ORDER.split("").map((c, i) => `${c}${obj.faceup[AZURE_NAMES[i]]}`).join(" ")}`,
      {"text-anchor": "start", "font-size": 14});
    py += 24;
    const deck = tileSet(obj.deck);
    label(svg, x0, py, `Hidden deck: ${deck.length} cards`, {"text-anchor": "start", "font-size": 14});
    py += 14;
    [...deck].forEach((letter, i) => tile(svg, x0 + i * 22, py, 20, letter, AZURE_DOMAINS));
    py += 40;
    const viewer = doc.viewer || obj.view;   // chosen under View as, or the position is a view
    if (viewer) {
      label(svg, x0, py, `Player ${viewer}'s view: ? is a card they cannot name`,
        {"text-anchor": "start", "font-size": 13, "font-style": "italic"});
      py += 26;
    }
    obj.players.forEach((player, p) => {
      const acting = doc.to_move === p + 1;
      this.stone(svg, x0 + 10, py, p + 1, false);
      label(svg, x0 + 28, py, `${acting ? "▶ " : ""}Player ${p + 1} · ${player.score} points · ${player.supply} stones in supply`,
        {"text-anchor": "start", "font-size": 14, "font-weight": acting ? "bold" : "normal"});
      py += 22;
      label(svg, x0, py, `beasts: ${player.beasts.map((b) => BEASTS[b]).join(", ") || "none"}`
        + (player.gifted ? ` · gifted stone on ${player.gifted}` : ""), {"text-anchor": "start", "font-size": 13});
      py += 14;
      [...tileSet(player.hand)].forEach((letter, i) => tile(svg, x0 + i * 22, py, 20, letter, AZURE_DOMAINS));
      py += 30;
      label(svg, x0, py, `known to the opponent: ${player.known}`, {"text-anchor": "start", "font-size": 12, fill: "#555"});
      py += 30;
    });
    svg.setAttribute("viewBox", `0 0 ${narrow ? left + realm.size * size + 10 : Math.max(x0 + 440, 900)} ${Math.max(y, py) + 10}`);
  },

  // A common stone is a disc, the gifted stone a diamond; both show the player's number.
  stone(svg, x, y, player, gifted) {
    const fill = AZURE_PLAYERS[player];
    if (gifted) el("path", {d: `M ${x} ${y - 14} L ${x + 14} ${y} L ${x} ${y + 14} L ${x - 14} ${y} Z`, fill, stroke: "#000"}, svg);
    else el("circle", {cx: x, cy: y, r: 12, fill, stroke: "#000"}, svg);
    label(svg, x, y, String(player), {"font-size": 12, "font-weight": "bold", fill: "#000"});
  },

  // The cosmos track: player 2's end on the left, player 1's on the right, | thresholds.
  track(svg, obj, track, left, y) {
    const steps = 2 * track.end + 1, w = 26;
    label(svg, left, y + 12, "Cosmos track: P2 ◀", {"text-anchor": "start", "font-size": 13});
    for (let i = 0; i < steps; i++) {
      const step = i - track.end, x = left + 140 + i * w;
      const here = step === obj.track;
      el("rect", {x, y, width: w - 4, height: 24, fill: here ? OKABE.yellow : Math.abs(step) === track.end ? "#999" : "#eee", stroke: "#666"}, svg);
      if (here) label(svg, x + (w - 4) / 2, y + 12, "Y", {"font-size": 12, "font-weight": "bold"});
      // a threshold between steps k and k + 1 from the middle, on either side
      const k = step >= 0 ? step : -(step + 1);
      if (i < steps - 1 && k >= 1 && track.thresholds.includes(k)) {
        el("line", {x1: x + w - 2, y1: y - 4, x2: x + w - 2, y2: y + 28, stroke: "#000", "stroke-width": 2}, svg);
      }
    }
    label(svg, left + 140 + steps * w + 4, y + 12, "▶ P1", {"text-anchor": "start", "font-size": 13});
    return y + 40;
  },
};

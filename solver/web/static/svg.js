// Small helpers to build SVG: el('rect', {x, y}, parent), a tile with its letter.
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  if (parent) parent.appendChild(node);
  return node;
}
function label(parent, x, y, content, attrs) {
  const node = el("text", Object.assign({x, y, "text-anchor": "middle",
    "dominant-baseline": "central", "font-size": 14}, attrs || {}), parent);
  node.textContent = content;
  return node;
}
// A square tile: its colour, its letter (dark or light to be read on the colour).
function tile(parent, x, y, size, letter, palette, attrs) {
  const colour = palette[letter] || {fill: "#fff", ink: "#000"};
  const rect = el("rect", Object.assign({x, y, width: size, height: size, rx: size / 6,
    fill: colour.fill, stroke: "#333", "stroke-width": 1}, attrs || {}), parent);
  label(parent, x + size / 2, y + size / 2, letter, {fill: colour.ink, "font-size": size * 0.55,
    "font-weight": "bold"});
  return rect;
}
function emptySlot(parent, x, y, size, attrs, text, ink) {
  const rect = el("rect", Object.assign({x, y, width: size, height: size, rx: size / 6,
    fill: "#f1ece2", stroke: "#bbb", "stroke-width": 1}, attrs || {}), parent);
  if (text) label(parent, x + size / 2, y + size / 2, text, {fill: ink || "#999", "font-size": size * 0.5});
  return rect;
}
// Okabe-Ito colours, told apart with colour-blindness; every tile also shows its letter.
const OKABE = {blue: "#0072B2", sky: "#56B4E9", yellow: "#F0E442", vermillion: "#D55E00",
  orange: "#E69F00", green: "#009E73", purple: "#CC79A7", black: "#222222", white: "#FFFFFF"};

function tileSet(text) { return text === "-" ? "" : text; }

// Factories in a row (two rows beyond 7), each a circle of up to four tiles that pick
// {source, colour}; returns the factories a row.
function factoryRow(svg, factories, palette, width) {
  const perRow = factories.length > 7 ? 5 : factories.length;
  const spacing = width / perRow;
  factories.forEach((factory, f) => {
    const cx = spacing * (f % perRow + 0.5), cy = 72 + Math.floor(f / perRow) * 110;
    el("circle", {cx, cy, r: 48, fill: "#e8e2d4", stroke: "#999"}, svg);
    label(svg, cx, cy - 56, `F${f + 1}`, {"font-size": 12, fill: "#555"});
    [...tileSet(factory)].forEach((letter, i) => {
      const x = cx - 32 + (i % 2) * 34, y = cy - 32 + Math.floor(i / 2) * 34;
      tile(svg, x, y, 30, letter, palette,
        {class: "clickable", "data-pick": JSON.stringify({source: `F${f + 1}`, colour: letter})});
    });
  });
  return perRow;
}

// "Bag B3 Y0 ...": a name, then each colour's letter and count.
function countsText(name, letters, names, table) {
  return `${name} ${letters.split("").map((c, i) => `${c}${table[names[i]]}`).join(" ")}`;
}

// A named row of tiles (the centre, the supply), wrapped to the board's width; the tiles
// pick {source, colour} when ``source`` is given (the first-player marker "1" never).
// Returns the y below it.
function tileRow(svg, name, letters, source, y, width, palette, note) {
  const perLine = Math.floor((width - 100) / 32);
  const tiles = [...tileSet(letters)];
  const lines = Math.max(1, Math.ceil(tiles.length / perLine));
  label(svg, 40, y + 20, name, {"font-size": 14, "font-weight": "bold"});
  el("rect", {x: 80, y, width: width - 100, height: 8 + 32 * lines, rx: 8, fill: "#e8e2d4", stroke: "#999"}, svg);
  tiles.forEach((letter, i) => {
    const pick = source && letter !== "1" ? {class: "clickable", "data-pick": JSON.stringify({source, colour: letter})} : {};
    tile(svg, 86 + (i % perLine) * 32, y + 5 + Math.floor(i / perLine) * 32, 30, letter, palette, pick);
  });
  if (note) label(svg, width - 30, y + 20, note, {"font-size": 12, "text-anchor": "end"});
  return y + 16 + 32 * lines;
}

// Boards side by side on a wide screen, one a row on a narrow one (a phone).
function boardLayout(svg) {
  const narrow = svg.parentElement.clientWidth < 640;
  return {width: narrow ? 500 : 1000, columns: narrow ? 1 : 2};
}

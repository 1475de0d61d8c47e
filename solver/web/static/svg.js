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

// The board up close on a phone. A whole board fits a phone's width only with its pieces
// smaller than a fingertip (a 500-unit drawing in some 360 px: an Azul tile about 20 px).
// So on a phone (the page's narrow or touch layout), where a piece to pick is under 40 px,
// a first tap on the board shows the part of it around the tap ZOOM times larger, every
// piece then at least 40 px, and taps there pick as on a desktop; "Whole board" shows all
// of it again, as does every new drawing (a move played). A tap on a piece of 40 px or more
// picks it at once. The selection made up close stays while the whole board is shown.
"use strict";
const zoom = (() => {
  const ZOOM = 2.5;
  const FINGER_PX = 40;  // the least width and height of a piece a finger picks
  const PHONE = window.matchMedia("(max-width: 640px), (pointer: coarse)");
  const board = () => document.getElementById("board");
  const button = () => document.getElementById("whole-board");

  const closeUp = () => board().dataset.whole !== undefined;

  const small = (node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && (box.width < FINGER_PX || box.height < FINGER_PX);
  };

  // Whether a tap on ``target`` (by default, anywhere) shows the board around it up close
  // rather than picking: on a phone, where a piece to pick is drawn smaller than a finger,
  // unless the tap is on a piece large enough.
  function wanted(target) {
    if (!PHONE.matches || closeUp()) return false;
    const piece = target && target.closest ? target.closest("[data-pick]") : null;
    return !(piece && !small(piece)) && [...board().querySelectorAll("[data-pick]")].some(small);
  }

  function showAround(clientX, clientY) {
    const svg = board();
    const view = svg.viewBox.baseVal, box = svg.getBoundingClientRect();
    const x = view.x + (clientX - box.left) / box.width * view.width;
    const y = view.y + (clientY - box.top) / box.height * view.height;
    const width = view.width / ZOOM, height = view.height / ZOOM;
    const within = (at, size, start, whole) => Math.min(Math.max(at - size / 2, start), start + whole - size);
    svg.dataset.whole = svg.getAttribute("viewBox");
    svg.setAttribute("viewBox",
      `${within(x, width, view.x, view.width)} ${within(y, height, view.y, view.height)} ${width} ${height}`);
    svg.classList.add("close-up");
    button().hidden = false;
  }

  // The whole board again (``drawn``: a new drawing has set its own view already).
  function showWhole(drawn) {
    const svg = board();
    if (closeUp() && !drawn) svg.setAttribute("viewBox", svg.dataset.whole);
    delete svg.dataset.whole;
    svg.classList.remove("close-up");
    button().hidden = true;
  }

  // Ahead of the board's own listener: a tap that brings the board up close picks nothing.
  board().addEventListener("click", (event) => {
    if (!wanted(event.target)) return;
    event.stopPropagation();
    showAround(event.clientX, event.clientY);
  }, true);
  button().addEventListener("click", () => showWhole(false));

  return {wanted, closeUp, showWhole, ZOOM};
})();

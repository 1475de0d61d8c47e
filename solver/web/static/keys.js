// The keyboard shortcuts, listed in the page's Keys panel (its button in the header, or ?).
// ← and → are app.js's (and why.js's while a line is stepped), Esc closes a stepped line
// (why.js); the others are handled here. Keys typed into a field are the field's.
"use strict";
const keys = (() => {
  const panel = document.getElementById("keys-panel");
  const button = document.getElementById("keys-button");

  function toggle(open) {
    panel.hidden = !(open === undefined ? panel.hidden : open);
    button.setAttribute("aria-expanded", String(!panel.hidden));
  }

  // keys: as KeyboardEvent.key names them; shown: as the list writes them; run: null when
  // another module handles the key.
  const SHORTCUTS = [
    {keys: ["ArrowLeft"], shown: "←", does: "back one move (one step of the line while a line is stepped)", run: null},
    {keys: ["ArrowRight"], shown: "→", does: "forward one move (one step of the line while a line is stepped)", run: null},
    {keys: ["Home"], shown: "Home", does: "the game's first position",
      run: () => guarded(() => jump(0))},
    {keys: ["End"], shown: "End", does: "the game's last position",
      run: () => guarded(() => jump(ui.history.length - 1))},
    {keys: ["a"], shown: "a", does: "start or stop the analysis", run: () => document.getElementById("analyse").click()},
    {keys: ["c"], shown: "c", does: "copy the position's text (into the Position box and the clipboard)",
      run: () => document.getElementById("copy").click()},
    {keys: ["Escape"], shown: "Esc", does: "close this list; leave a stepped line", run: () => toggle(false)},
    {keys: ["?"], shown: "?", does: "show or hide this list", run: () => toggle()},
  ];

  function drawList() {
    const list = document.createElement("dl");
    for (const shortcut of SHORTCUTS) {
      const key = document.createElement("dt");
      const kbd = document.createElement("kbd");
      kbd.textContent = shortcut.shown;
      kbd.dataset.key = shortcut.keys[0];
      key.appendChild(kbd);
      const does = document.createElement("dd");
      does.textContent = shortcut.does;
      list.append(key, does);
    }
    const title = document.createElement("h2");
    title.textContent = "Keys";
    panel.replaceChildren(title, list);
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    const shortcut = SHORTCUTS.find((s) => s.run && s.keys.includes(event.key));
    if (!shortcut) return;
    // Home and End would also scroll the page.
    event.preventDefault();
    shortcut.run();
  });
  button.addEventListener("click", () => toggle());
  drawList();
  return {SHORTCUTS, toggle};
})();

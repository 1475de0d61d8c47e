// The first start: how far the server has loaded each game's kernels (GET /api/warmup),
// a small bar a game while anything loads, hidden once everything is ready, and above the
// board a line for the game chosen: what loads or compiles, for how long so far, and what
// already works. From the kernels the package ships compiled this takes a second or two;
// where the stages compile it takes minutes, and moves are ready well before the search.
// ``warmup.searchReady(game)`` resolves once that game's search has loaded (or failed to:
// the search then meets its own error).
"use strict";
const warmup = (() => {
  const POLL_MS = 500;
  const WAITED_POLL_MS = 100;  // while an analysis waits for its search: it starts as soon as it can
  const GAME_NAMES = {azul: "Azul", pavilion: "Summer Pavilion", azure: "Azure"};
  const STAGE_NAMES = {moves: "moves", search: "search"};
  let report = null;          // the latest answer of /api/warmup
  let waiters = [];           // {game, resolve} waiting for a game's search
  let timer = null;           // the next poll, or null while one runs

  const ended = (stage) => stage.state === "ready" || stage.state === "failed";
  const finished = () => report && report.done === report.total;

  function searchEnded(game) {
    if (!report || finished()) return report !== null;
    const entry = report.games.find((g) => g.game === game);
    return !entry || !entry.stages.search || ended(entry.stages.search);
  }

  function searchReady(game) {
    if (searchEnded(game)) return Promise.resolve();
    if (timer !== null) schedule(WAITED_POLL_MS);
    return new Promise((resolve) => waiters.push({game, resolve}));
  }

  function settle() {
    const waiting = [];
    for (const waiter of waiters) (searchEnded(waiter.game) ? waiter.resolve() : waiting.push(waiter));
    waiters = waiting;
  }

  // The server's "compiling" only loads where the kernels ship compiled.
  const working = () => (report.compiled_ahead ? "loading" : "compiling");

  function stageText(name, stage) {
    if (stage.state === "ready") return `${STAGE_NAMES[name]} ready`;
    if (stage.state === "failed") return `${STAGE_NAMES[name]} failed: ${stage.error}`;
    if (stage.state === "compiling") return `${STAGE_NAMES[name]} ${working()}… ${Math.round(stage.seconds)} s`;
    return `${STAGE_NAMES[name]} waiting`;
  }

  // The board's own line: the chosen game's stages, and what the player can do meanwhile.
  function boardText(entry) {
    const {moves, search} = entry.stages;
    const game = GAME_NAMES[entry.game] || entry.game;
    const seconds = (stage) => `${stage.seconds === undefined ? 0 : stage.seconds.toFixed(1)} s`;
    if (moves.state === "failed") return `${game} failed to load: ${moves.error}`;
    if (moves.state !== "ready") {
      const doing = moves.state === "compiling" ? `${working()} its rules… ${seconds(moves)}` : "waiting to load its rules";
      return `${game}: ${doing}. The board appears once they are ready.`;
    }
    if (!search || search.state === "ready") return "";
    if (search.state === "failed") return `${game}: the search failed to load: ${search.error}`;
    const doing = search.state === "compiling" ? `${working()} the search… ${seconds(search)}` : "the search waits its turn to load";
    return `${game}: moves ready, play on the board; ${doing}, and an analysis starts once it is ready.`;
  }

  function drawBoardLine() {
    const line = document.getElementById("board-loading");
    const chosen = document.getElementById("game").value;
    const entry = report.games.find((g) => g.game === chosen);
    const text = entry ? boardText(entry) : "";
    line.hidden = text === "";
    line.textContent = text;
    line.classList.toggle("failed", text.includes("failed"));
  }

  function draw() {
    drawBoardLine();
    const panel = document.getElementById("warmup");
    const failed = report.games.some((g) => Object.values(g.stages).some((s) => s.state === "failed"));
    panel.hidden = finished() && !failed;
    if (panel.hidden) return;
    const rows = [];
    const title = document.createElement("div");
    title.className = "warmup-title";
    title.textContent = report.compiled_ahead
      ? `Loading the games: ${report.done} of ${report.total} stages`
      : `Loading the games (a first start compiles them): ${report.done} of ${report.total} stages`;
    rows.push(title);
    for (const entry of report.games) {
      const stages = Object.entries(entry.stages);
      const row = document.createElement("div");
      row.className = "warmup-game";
      row.dataset.game = entry.game;
      const name = document.createElement("b");
      name.textContent = GAME_NAMES[entry.game] || entry.game;
      const bar = document.createElement("progress");
      bar.max = stages.length;
      bar.value = stages.filter(([, stage]) => ended(stage)).length;
      row.append(name, bar);
      for (const [stageName, stage] of stages) {
        const item = document.createElement("span");
        item.className = `warmup-stage ${stage.state}`;
        item.dataset.stage = stageName;
        item.textContent = stageText(stageName, stage);
        row.append(item);
      }
      rows.push(row);
    }
    panel.replaceChildren(...rows);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  async function poll() {
    timer = null;
    try {
      const response = await fetch("/api/warmup");
      if (response.ok) show(await response.json());
    } catch (err) {
      // The server is away for a moment: asked again below.
    }
    if (!finished()) schedule(waiters.length ? WAITED_POLL_MS : POLL_MS);
  }

  // Shows ``given`` as the latest report (what a poll does with the server's answer).
  function show(given) {
    report = given;
    draw();
    settle();
  }

  poll();
  return {searchReady, searchEnded, show, report: () => report};
})();

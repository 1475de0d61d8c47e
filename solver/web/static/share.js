// Share links: the page's address with, after "#", the game's start position (its
// notation on one line), the chance generator's state there, the moves played from it and
// the move on the board. Opening such a link replays the moves through the engine and
// shows the board at that move; a bad link shows one error line and leaves a board to play.
//
//   #p=<position>&rng=<state>&m=<move 1>&m=<move 2>…&hold=<2,5>&at=<index>
//
// ``hold`` lists the moves after which chance was left to be chosen by hand (the page's
// "deal chance by the seed" unticked); after every other move pending chance is dealt from
// the generator, as it was when the moves were played.
//
// In a game of hidden information (Azure) "Copy link" shares a player's view instead: the
// link is ``#p=<the view>`` alone, the position on the board as that player knows it (the
// moves before it and the generator would tell the cards it hides), and opens on that view.
// The game with every card is the separate "Copy link to everything" (copyLink(true)), and
// opens on "everything".
"use strict";
const DEALT_SUFFIX = " (chance dealt)";

// The player whose view "Copy link" shares: on a player's view, that player; on a complete
// position of hidden information, the one chosen under View as, or while everything is
// viewed the player to move (player 1 when nobody is). null where nothing is hidden.
function sharedViewer(doc) {
  if (doc.is_view) return doc.json.view;
  if (!doc.views) return null;
  return Number($("viewer").value) || doc.to_move || 1;
}

// The share controls as the position on the board wants them (show() and View as call it).
function shareControlsShown() {
  const node = current();
  if (!node || !node.doc) return;
  const viewer = sharedViewer(node.doc);
  const copy = $("copy-link");
  copy.textContent = viewer == null ? "Copy link" : `Copy link: player ${viewer}'s view`;
  copy.title = viewer == null ? "a link that opens this game at this move"
    : `a link to this position as player ${viewer} knows it: the cards they cannot see stay hidden`;
  $("copy-link-all").hidden = !node.doc.views;
}

async function shareLink(whole) {
  const doc = await nodeDoc(current());
  const viewer = whole ? null : sharedViewer(doc);
  if (viewer != null) {
    const view = doc.is_view ? doc : await api("/api/view", {position: doc.text, player: viewer});
    return linkTo(new URLSearchParams({p: view.text.split("\n").join("; ")}));
  }
  const params = new URLSearchParams();
  const start = ui.history[0];
  params.set("p", start.text.split("\n").join("; "));
  if (start.rng != null) params.set("rng", start.rng);
  const held = [];
  for (let i = 1; i < ui.history.length; i++) {
    const node = ui.history[i];
    params.append("m", node.move.endsWith(DEALT_SUFFIX) ? node.move.slice(0, -DEALT_SUFFIX.length) : node.move);
    if ((await nodeDoc(node)).is_chance) held.push(i);
  }
  if (held.length) params.set("hold", held.join(","));
  if (ui.index !== ui.history.length - 1) params.set("at", String(ui.index));
  return linkTo(params);
}

function linkTo(params) {
  return `${location.origin}${location.pathname}#${params.toString()}`;
}

// The link in the address, restored: {restored: whether a board came from it, error: what
// was wrong with it, or null}. A link without a position is no share link.
async function openSharedLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("p")) return {restored: false, error: null};
  let start;
  try {
    start = await api("/api/position", {position: params.get("p"), rng: params.get("rng") || undefined});
  } catch (err) {
    return {restored: false, error: `bad link: ${err.message}`};
  }
  const held = new Set((params.get("hold") || "").split(",").filter(Boolean).map(Number));
  const history = [{move: null, text: start.text, rng: start.rng, doc: start}];
  let error = null;
  for (const [i, move] of params.getAll("m").entries()) {
    const before = history[history.length - 1];
    try {
      const doc = await api("/api/play", {position: before.text, move, rng: before.rng, deal: !held.has(i + 1)});
      history.push({move: doc.dealt ? move + DEALT_SUFFIX : move, text: doc.text, rng: doc.rng, doc});
    } catch (err) {
      error = `bad link: move ${i + 1} "${move}": ${err.message}`;
      break;
    }
  }
  const at = params.has("at") ? Number(params.get("at")) : history.length - 1;
  if (!error && !(Number.isInteger(at) && at >= 0 && at < history.length)) {
    error = `bad link: at must be a move number from 0 to ${history.length - 1}, not "${params.get("at")}"`;
  }
  ui.history = history;
  ui.index = error ? history.length - 1 : at;
  // A view opens as its player sees it, moves played on from it too; the game, on everything.
  $("viewer").value = start.is_view ? String(start.json.view) : "";
  $("seats").replaceChildren();
  followHeader(start);
  await show();
  return {restored: true, error};
}

async function copyLink(whole) {
  const link = await shareLink(whole);
  const box = $("share-link");
  box.value = link;
  box.hidden = false;
  if (navigator.clipboard) await navigator.clipboard.writeText(link).catch(() => {});
}

document.getElementById("copy-link").addEventListener("click", () => guarded(() => copyLink(false)));
document.getElementById("copy-link-all").addEventListener("click", () => guarded(() => copyLink(true)));
document.getElementById("viewer").addEventListener("change", shareControlsShown);
// A link pasted into the address bar of an open page changes only the part after "#".
window.addEventListener("hashchange", () => guarded(async () => {
  const link = await openSharedLink();
  if (link.error) throw new Error(link.error);
}));

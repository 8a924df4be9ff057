// The reference web client's router: #/ lobby, #/m/<id> play (or watch without a seat),
// #/watch/<id> spectate, #/join/<id>/<seat>, #/seat/<id>/<seat>/<token> (a seat link),
// #/replay/<id>[/<version>], #/replay-file.
import { keepSeat } from "./api.js";
import { h, replace } from "./dom.js";
import { joinSeat, showLobby } from "./lobby.js";
import { showMatch } from "./play.js";
import { showReplay, showReplayUpload } from "./replay.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
let cleanup = () => {};

async function route() {
  cleanup();
  cleanup = () => {};
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  try {
    let done;
    if (parts[0] === "m" && parts[1]) done = await showMatch(root, parts[1]);
    else if (parts[0] === "watch" && parts[1]) done = await showMatch(root, parts[1], { spectate: true });
    else if (parts[0] === "join" && parts[1]) done = await joinSeat(root, parts[1], Number(parts[2]));
    else if (parts[0] === "seat" && parts[1] && parts[3]) {
      keepSeat(parts[1], Number(parts[2]), parts[3]);
      location.replace(`#/m/${parts[1]}`);   // the token leaves the address bar at once
      return;
    } else if (parts[0] === "replay" && parts[1]) done = await showReplay(root, { matchId: parts[1] }, parts[2] ? Number(parts[2]) : null);
    else if (parts[0] === "replay-file") done = showReplayUpload(root);
    else done = await showLobby(root);
    if (typeof done === "function") cleanup = done;
  } catch (error) {
    replace(root, h("h1", { text: "Something went wrong" }), h("p", { class: "problem", text: String(error && error.message || error) }),
      h("a", { href: "#/", text: "Back to the lobby" }));
  }
  document.title = `${root.querySelector("h1")?.textContent || "Lobby"} — Apocalypse Arena`;
}

window.addEventListener("hashchange", route);
route();

// The reference web client's router: #/ lobby, #/m/<id> play (or watch without a seat),
// #/watch/<id> spectate, #/join/<id>/<seat>, #/seat/<id>/<seat>/<token> (a seat link),
// #/replay/<id>[/<version>], #/replay-file, #/player/<id> (a profile), #/leaderboard/<game>[/<mode>].
import { keepSeat } from "./api.js";
import { h, replace } from "./dom.js";
import { joinSeat, showLobby } from "./lobby.js";
import { showMatch } from "./play.js";
import { showReplay, showReplayUpload } from "./replay.js";
import { showProfile } from "./players.js";
import { showLeaderboard } from "./leaderboard.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
let cleanup = () => {};

let current = 0;

/**
 * Draw the page the address names. Each page is built in its own box and shown only if no
 * later navigation started meanwhile (a slow earlier page must not cover a newer one).
 */
async function route() {
  const mine = ++current;
  cleanup();
  cleanup = () => {};
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const box = h("div", { class: "page" });
  let done;
  try {
    if (parts[0] === "m" && parts[1]) done = await showMatch(box, parts[1]);
    else if (parts[0] === "watch" && parts[1]) done = await showMatch(box, parts[1], { spectate: true });
    else if (parts[0] === "join" && parts[1]) done = await joinSeat(box, parts[1], Number(parts[2]));
    else if (parts[0] === "seat" && parts[1] && parts[3]) {
      keepSeat(parts[1], Number(parts[2]), parts[3]);
      location.replace(`#/m/${parts[1]}`);   // the token leaves the address bar at once
      return;
    } else if (parts[0] === "replay" && parts[1]) done = await showReplay(box, { matchId: parts[1] }, parts[2] ? Number(parts[2]) : null);
    else if (parts[0] === "replay-file") done = showReplayUpload(box);
    else if (parts[0] === "player" && parts[1]) done = await showProfile(box, parts[1]);
    else if (parts[0] === "leaderboard") done = await showLeaderboard(box, parts[1], parts[2]);
    else done = await showLobby(box);
  } catch (error) {
    replace(box, h("h1", { text: "Something went wrong" }), h("p", { class: "problem", text: String(error && error.message || error) }),
      h("a", { href: "#/", text: "Back to the lobby" }));
  }
  if (mine !== current) {            // the user has gone elsewhere meanwhile
    if (typeof done === "function") done();
    return;
  }
  replace(root, box);
  if (typeof done === "function") cleanup = done;
  document.title = `${root.querySelector("h1")?.textContent || "Lobby"} — Apocalypse Arena`;
}

window.addEventListener("hashchange", route);
route();
